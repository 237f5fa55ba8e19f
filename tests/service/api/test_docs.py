"""The curl walk-through of docs/api.md works, as written, against ``python -m service``."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from servers import code_block, running


def shell_block(document: str, heading: str) -> str:
    """The first ``sh`` code block after ``heading`` in ``document``."""
    return code_block(document, heading, "sh")


def run_against_a_server(script: str) -> str:
    """Run a documented shell session against ``python -m service`` on a free port; its output."""
    with running([sys.executable, "-m", "service"]) as (port, _):
        script = script.replace("127.0.0.1:8000", f"127.0.0.1:{port}")
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_readme_session() -> None:
    output = run_against_a_server(shell_block("README.md", "A short session with"))
    lines = output.splitlines()
    assert lines[0] == '{"status":"playing","current_seat":0}'
    assert '"placed_this_turn":2' in lines[3]
    assert (
        lines[4].startswith('{"current_seat":1,"hand":[')
        and lines[-1] == '{"seat":1,"current_seat":1,"can_end_turn":false}'
    )


def test_the_curl_walkthrough() -> None:
    output = run_against_a_server(shell_block("docs/api.md", "## Walk-through with curl"))
    assert re.search(r'ETag: "3\.[0-9a-f]{8}"', output) and "\n304\n" in output
    assert '"error":"card_not_in_hand"' in output
    assert '{"version":9,"current_seat":0' in output  # the bot played its turn inside Ann's turn end


def test_the_ninja_walkthrough() -> None:
    output = run_against_a_server(shell_block("docs/api.md", "## Walk-through with curl: Ninja"))
    lines = output.splitlines()
    catalog = [json.loads(line)["name"] for line in lines[:-6]]
    assert catalog == ["bataille-corse", "ninja", "the-game"]
    assert lines[-6:-3] == [
        '{"phase":"swap","waiting_for":[0,1]}',
        '{"phase":"swap","waiting_for":[1]}',
        '{"phase":"play","current_seat":0}',
    ]
    played = json.loads(lines[-3])
    assert len(played["pile"]) >= 1 and played["current_seat"] == 1
    assert lines[-2:] == ['{"error":"not_your_turn"}', '{"error":"invalid_action"}']
