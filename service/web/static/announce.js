// The page's two live regions: polite for others' moves, assertive for "your turn" and refused actions.

export function announce(text, {assertive = false} = {}) {
  const region = document.getElementById(assertive ? "assertive" : "polite");
  if (!region || !text) return;
  region.textContent = "";
  // a new text node in an emptied region is read even when the text repeats
  requestAnimationFrame(() => { region.textContent = text; });
}
