"""Load checkpoint / misconception ids of the seed questions (from /work/shared/rubric-spec.md)
and of the eval questions (from eval/content/*.yaml)."""
import re
from pathlib import Path

import yaml

EVAL = Path(__file__).resolve().parent.parent
RUBRIC = Path("/work/shared/rubric-spec.md")


def seed_questions(path=RUBRIC):
    """{qid: {"checkpoints": [...], "misconceptions": [...]}} parsed from the rubric tables."""
    out, cur, table = {}, None, None
    for line in path.read_text().splitlines():
        m = re.match(r"^## `([^`]+)`", line)
        if m:
            cur = m.group(1)
            out[cur] = {"checkpoints": [], "misconceptions": []}
            table = None
            continue
        if cur is None:
            continue
        if line.startswith("| checkpoint id"):
            table = "checkpoints"
        elif line.startswith("| id |"):
            table = "misconceptions"
        m = re.match(r"^\| `([^`]+)` \|", line)
        if m and table:
            out[cur][table].append(m.group(1))
    return out


MINIMAL_KEYS = {"id", "title", "topic", "prompt", "checkpoints", "misconceptions"}


def minimal_questions(content_dir=EVAL / "content"):
    out = {}
    for f in sorted(Path(content_dir).glob("*.yaml")):
        d = yaml.safe_load(f.read_text())
        extra = set(d) - MINIMAL_KEYS
        assert not extra, f"{f.name}: non-minimal keys {extra}"
        assert f.stem == d["id"], f"{f.name}: file name != id {d['id']}"
        for k in ("id", "title", "topic", "prompt", "checkpoints"):
            assert d.get(k), f"{f.name}: missing {k}"
        for c in d["checkpoints"]:
            assert set(c) == {"id", "text"}, f"{f.name}: checkpoint keys {set(c)}"
        for c in d.get("misconceptions") or []:
            assert set(c) == {"id", "text"}, f"{f.name}: misconception keys {set(c)}"
        out[d["id"]] = {
            "checkpoints": [c["id"] for c in d["checkpoints"]],
            "misconceptions": [c["id"] for c in d.get("misconceptions") or []],
        }
    return out
