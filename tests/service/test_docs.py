"""The curl walk-through of docs/api.md works, as written, against ``python -m service``."""

from __future__ import annotations

import subprocess
import sys

from servers import ROOT, running


def walkthrough() -> str:
    text = (ROOT / "docs" / "api.md").read_text()
    return text.split("## Walk-through with curl")[1].split("```sh")[1].split("```")[0]


def test_the_curl_walkthrough() -> None:
    with running([sys.executable, "-m", "service"]) as (port, _):
        script = walkthrough().replace("127.0.0.1:8000", f"127.0.0.1:{port}")
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    output = done.stdout
    assert 'ETag: "3"' in output and "\n304\n" in output
    assert '"error":"card_not_in_hand"' in output
    assert '{"version":9,"current_seat":0' in output  # the bot played its turn inside Ann's turn end
