"""Differential run of toolschema's lenient parse against Python's json_repair.

Generates valid documents (tool-call arguments of the kinds models write), corrupts each in
one of the ways the syntax and extraction policy covers (docs/recovery.md, "Syntax and
extraction"), runs every input through toolschema (the `differential_json_repair` test
target) and through `json_repair.loads`, and prints a table of verdicts per class.

    python differential.py OUT_DIR [--cases-per-class N] [--seed S] [--show VERDICT ...]

Each case has the value a careful reader takes from the text: the original document, or,
where the policy reads the text otherwise (a backslash before `t` is the JSON escape; a
member written without a value is dropped, not invented), that reading. Verdicts:

- agree: both give the same value, or both refuse;
- ours better: ours is the expected value and theirs is not, or theirs is a wrong value
  where ours refuses;
- theirs better: the reverse;
- policy: ours is the policy's reading and theirs is the document as it was before the
  damage, where the policy reads the text otherwise (`\\t` in a path is a tab);
- both wrong: both give values, each other than expected.

The inputs are generated in corpus.py from word lists written for this run; no other
project's test suite is used.
"""

import importlib.metadata
import json
import os
import random
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

import json_repair

from corpus import CLASSES, LAYOUT, document


def schema_of(value):
    """A schema that the document fits: its types, every key required."""
    if isinstance(value, bool):
        return {"type": "boolean"}
    if value is None:
        return {"type": "null"}
    if isinstance(value, int):
        return {"type": "integer"}
    if isinstance(value, float):
        return {"type": "number"}
    if isinstance(value, str):
        return {"type": "string"}
    if isinstance(value, list):
        return {"type": "array", "items": schema_of(value[0])} if value else {"type": "array"}
    return {
        "type": "object",
        "properties": {k: schema_of(v) for k, v in value.items()},
        "required": list(value),
    }


def same(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


REFUSED = object()


def theirs(text):
    try:
        value = json_repair.loads(text)
    except Exception:  # json_repair raises on some inputs: its refusal
        return REFUSED
    # json_repair gives "" for text it finds no JSON in: its refusal.
    return REFUSED if value == "" else value


def verdict(ours, theirs_value, expected, original):
    o_ok = ours is not REFUSED and same(ours, expected)
    t_ok = theirs_value is not REFUSED and same(theirs_value, expected)
    if (ours is REFUSED and theirs_value is REFUSED) or (
        ours is not REFUSED and theirs_value is not REFUSED and same(ours, theirs_value)
    ):
        return "agree"
    if o_ok and theirs_value is not REFUSED and same(theirs_value, original):
        return "policy"  # the policy reads the text otherwise than the document was
    if o_ok:
        return "ours better"
    if t_ok:
        return "theirs better"
    if ours is REFUSED:
        return "ours better"  # theirs is a wrong value
    if theirs_value is REFUSED:
        return "theirs better"  # ours is a wrong value
    return "both wrong"


VERDICTS = ["agree", "ours better", "theirs better", "policy", "both wrong"]


def main():
    args = sys.argv[1:]
    out = Path(args[0]).resolve()
    per_class = int(args[args.index("--cases-per-class") + 1]) if "--cases-per-class" in args else 200
    seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 7
    show = set(args[args.index("--show") + 1 :]) if "--show" in args else set()
    rng = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)

    cases = []
    for name, corrupt in CLASSES:
        made = tries = 0
        while made < per_class and tries < per_class * 20:
            tries += 1
            LAYOUT["indent"] = rng.choice([None, None, 2])
            doc = document(rng)
            result = corrupt(doc, rng)
            if result is None:
                continue
            text, expected = result
            if name not in ("valid", "fence in string", "braces in string"):
                text = rng.choice([text, text, "```json\n%s\n```" % text,
                                   "Here is the call:\n%s\nDone." % text])
            if name != "valid" and _is_strict(text) and name not in ("braces in string",):
                continue  # the corruption left valid JSON: not this class
            cases.append({"id": len(cases), "class": name, "input": text, "expected": expected,
                          "original": doc, "schema": schema_of(doc)})
            made += 1

    cases_in = out / "cases.jsonl"
    rows_out = out / "toolschema.jsonl"
    with cases_in.open("w") as f:
        for c in cases:
            f.write(json.dumps({"id": c["id"], "input": c["input"], "schema": c["schema"]}) + "\n")
    env = dict(os.environ, TOOLSCHEMA_DIFFERENTIAL_IN=str(cases_in), TOOLSCHEMA_DIFFERENTIAL_OUT=str(rows_out))
    subprocess.run(
        ["cargo", "test", "--quiet", "-p", "toolschema-tests", "--test", "differential_json_repair"],
        check=True, env=env, stdout=subprocess.DEVNULL,
    )
    rows = {}
    for line in rows_out.read_text().splitlines():
        row = json.loads(line)
        rows[row["id"]] = row

    def ours_of(result):
        return REFUSED if "error" in result else result["value"]

    table = defaultdict(Counter)
    typed = defaultdict(Counter)
    fixes_on_valid = 0
    details = []
    for c in cases:
        row = rows[c["id"]]
        mine, typed_mine, other = ours_of(row["any"]), ours_of(row["typed"]), theirs(c["input"])
        v = verdict(mine, other, c["expected"], c["original"])
        table[c["class"]][v] += 1
        t = "right" if typed_mine is not REFUSED and same(typed_mine, c["expected"]) else (
            "refused" if typed_mine is REFUSED else "wrong")
        typed[c["class"]][t] += 1
        if c["class"] == "valid" and row["any"].get("fixes"):
            fixes_on_valid += 1
        if v in show or (show and "all" in show):
            details.append((c, v, row, other))

    width = max(len(n) for n, _ in CLASSES) + 2
    print("json_repair %s; %d cases per class, seed %d; toolschema with the schema {}" % (
        importlib.metadata.version("json_repair"), per_class, seed))
    print("%-*s %6s %7s %12s %14s %7s %11s   | typed: %5s %7s %5s" % (
        width, "class", "cases", *VERDICTS, "right", "refused", "wrong"))
    totals, typed_totals = Counter(), Counter()
    for name, _ in CLASSES:
        row = table[name]
        totals.update(row)
        typed_totals.update(typed[name])
        print("%-*s %6d %7d %12d %14d %7d %11d   |        %5d %7d %5d" % (
            width, name, sum(row.values()), *(row[v] for v in VERDICTS),
            typed[name]["right"], typed[name]["refused"], typed[name]["wrong"]))
    print("%-*s %6d %7d %12d %14d %7d %11d   |        %5d %7d %5d" % (
        width, "all", sum(totals.values()), *(totals[v] for v in VERDICTS),
        typed_totals["right"], typed_totals["refused"], typed_totals["wrong"]))
    print("\nvalid documents with a fix reported by toolschema: %d" % fixes_on_valid)
    print("(typed: toolschema given a schema the document fits; 'wrong' is a value other than expected)")
    for c, v, row, other in details:
        print("\n[%s] %s #%d\n  input:    %s\n  expected: %s\n  ours:     %s\n  theirs:   %s" % (
            v, c["class"], c["id"], json.dumps(c["input"], ensure_ascii=False),
            json.dumps(c["expected"], ensure_ascii=False),
            json.dumps(row["any"], ensure_ascii=False),
            "refused" if other is REFUSED else json.dumps(other, ensure_ascii=False)))


def _is_strict(text):
    try:
        json.loads(text)
        return True
    except ValueError:
        return False


if __name__ == "__main__":
    main()
