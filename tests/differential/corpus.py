"""The corpus of the differential run: valid documents (tool-call arguments of the kinds
models write) and the classes of damage docs/recovery.md ("Syntax and extraction")
covers, each a function `(document, rng) -> (input, expected) | None`.

The documents are generated here from word lists written for this run; no other
project's test suite is used.
"""

import json

WORDS = (
    "budget review quarterly planning room meeting notes launch draft final report team "
    "sales north south east west alpha beta client invoice order ship deliver urgent "
    "follow up call schedule weekly design sync hiring update roadmap support ticket"
).split()
NAMES = ["Ann", "Bob", "Chen", "Dana", "Eli", "Fatima", "Goran", "Hana"]
ROOMS = ["B2", "A1", "C3", "Main hall", "Room 4"]
PATHS = [
    ["C:", "Users", "ann", "report.docx"],
    ["C:", "temp", ""],
    ["\\\\server", "share", "docs"],
    ["C:", "data", "exports", "q3.csv"],
    ["D:", "temp", "new", "file.txt"],
    ["C:", "Program Files", "Tool", "bin"],
    ["C:", "logs", "app", "run.log"],
    ["E:", "backup", "notes", "todo.md"],
]
REGEXES = [
    r"^\d{4}-\d{2}-\d{2}$",
    r"\$\d+(\.\d\d)?",
    r"[\w.-]+\\[\w.-]+",
    r"\w+@\w+\.com",
    r"^[A-Z]{2}\d{6}$",
    r"\s+",
    r"(\d+)\.(\d+)",
    r"^\+?\d[\d ]{7,}$",
    r"\bword\b",
]
QUOTED = [
    'she said "wait" and left',
    'he asked "why?" twice',
    'the "new" plan (draft)',
    'labelled "A", "B" and "C"',
    'a "quoted".',
    'she wrote: "done"',
    'tags "x" and "y" - see "z"',
    'the sign read "closed", so we went home',
    'he typed "yes": nothing happened',
    'call it "Project X"',
    '"quoted" at the start',
    'a 5" screen and a 3" one',
    'ends with "quote"',
    'the reply was "no, thanks" and then silence',
]
SENTENCES = [
    "Bring the laptop",
    "Room 4B at 9am",
    "ann@example.com",
    "Q3 budget - draft 2",
    "it's done",
    "Q3 budget review",
    "Dinner with the team at 7",
    "Bob's farewell party",
    "Check the 2 open tickets",
    "Prepare slides for Monday",
]


def sentence(rng, lo=2, hi=6):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(lo, hi)))


def document(rng):
    """A tool call's arguments: a flat or nested object of the usual kinds."""
    kind = rng.randrange(7)
    if kind == 0:
        doc = {
            "title": rng.choice(SENTENCES),
            "room": rng.choice(ROOMS),
            "attendees": rng.sample(NAMES, rng.randint(1, 3)),
            "duration_minutes": rng.choice([15, 30, 45, 60, 90]),
            "remote": rng.choice([True, False]),
            "notes": rng.choice([None, sentence(rng)]),
        }
    elif kind == 1:
        doc = {
            "path": "\\".join(rng.choice(PATHS)),
            "overwrite": rng.choice([True, False]),
            "size_limit": rng.choice([1000, 25000, 1048576, 5000000]),
        }
    elif kind == 2:
        doc = {
            "field": rng.choice(["date", "email", "code", "phone"]),
            "pattern": rng.choice(REGEXES),
            "strict": rng.choice([True, False, None]),
        }
    elif kind == 3:
        doc = {
            "note": rng.choice(QUOTED),
            "count": rng.randint(1, 9),
            "tags": [rng.choice(WORDS) for _ in range(rng.randint(0, 3))],
        }
    elif kind == 4:
        doc = {
            "language": "python",
            "code": rng.choice(
                [
                    "```python\nprint(1)\n```",
                    "def f(x):\n\treturn {x: 1}",
                    "```json\n{\"a\": [1, 2]}\n```",
                    "x = {'k': [1, 2]}\nprint(x)",
                ]
            ),
            "explain": rng.choice([True, False]),
        }
    elif kind == 5:
        doc = {
            "messages": [rng.choice(QUOTED + SENTENCES) for _ in range(rng.randint(1, 3))],
            "reply_to": rng.choice(NAMES),
            "priority": rng.choice([1, 2, 3, None]),
            "meta": {"thread": "T-%d" % rng.randint(1, 99), "summary": rng.choice(QUOTED)},
        }
    else:
        doc = {
            "customer": {"name": rng.choice(NAMES), "vip": rng.choice([True, False])},
            "items": [
                {"sku": "SKU-%d" % rng.randint(100, 999), "qty": rng.randint(1, 5)}
                for _ in range(rng.randint(1, 3))
            ],
            "total": rng.choice([1250, 99.5, 12000, 3.0, 45.25]),
            "comment": rng.choice([None, rng.choice(SENTENCES)]),
        }
    return doc


# Rendering: JSON text with one spot written otherwise.


def string_literal(s):
    return json.dumps(s, ensure_ascii=False)


LAYOUT = {"indent": None}


def render(value, hook, path=()):
    """`value` as JSON text, where `hook(path, value)` may give the text of a spot; compact,
    or pretty when `LAYOUT["indent"]` is set."""
    custom = hook(path, value)
    if custom is not None:
        return custom
    indent = LAYOUT["indent"]
    pad = "" if indent is None else "\n" + " " * (indent * (len(path) + 1))
    end = "" if indent is None else "\n" + " " * (indent * len(path))
    if isinstance(value, dict):
        parts = []
        for k, v in value.items():
            member = hook(path + (k, "member"), v)
            if member is not None:
                parts.append(member)
                continue
            parts.append("%s: %s" % (string_literal(k), render(v, hook, path + (k,))))
        parts = [p for p in parts if p != ""]
        return "{" + pad + ("," + (pad or " ")).join(parts) + (end if parts else "") + "}"
    if isinstance(value, list):
        items = [render(v, hook, path + (i,)) for i, v in enumerate(value)]
        return "[" + pad + ("," + (pad or " ")).join(items) + (end if items else "") + "]"
    return json.dumps(value, ensure_ascii=False)


def leaves(value, path=()):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from leaves(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from leaves(v, path + (i,))
    else:
        yield path, value


def members(value, path=()):
    if isinstance(value, dict):
        for k, v in value.items():
            yield path, k, v
            yield from members(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from members(v, path + (i,))


def spot(path, text):
    return lambda p, v: text if p == path else None


def policy_unescaped(raw):
    """What a backslash-escaped text means under the policy: JSON escapes are escapes, a
    backslash before anything else is itself."""
    out, i = [], 0
    simple = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
    while i < len(raw):
        c = raw[i]
        if c == "\\" and i + 1 < len(raw):
            n = raw[i + 1]
            if n in simple:
                out.append(simple[n])
                i += 2
                continue
            if n == "u" and all(ch in "0123456789abcdefABCDEF" for ch in raw[i + 2 : i + 6]) and len(raw) >= i + 6:
                out.append(chr(int(raw[i + 2 : i + 6], 16)))
                i += 6
                continue
        out.append(c)
        i += 1
    return "".join(out)


def without(doc, path, key):
    """`doc` without the member `key` of the object at `path`."""
    doc = json.loads(json.dumps(doc))
    target = doc
    for p in path:
        target = target[p]
    del target[key]
    return doc


def replace_leaf(doc, path, value):
    doc = json.loads(json.dumps(doc))
    target = doc
    for p in path[:-1]:
        target = target[p]
    target[path[-1]] = value
    return doc


# The classes of damage. Each returns (input, expected) or None when the document has no
# spot for it.


def unescaped_quotes(doc, rng):
    spots = [(p, v) for p, v in leaves(doc) if isinstance(v, str) and '"' in v]
    if not spots:
        return None
    path, s = rng.choice(spots)
    text = '"' + string_literal(s)[1:-1].replace('\\"', '"') + '"'
    return render(doc, spot(path, text)), doc


def backslashes(doc, rng):
    spots = [(p, v) for p, v in leaves(doc) if isinstance(v, str) and "\\" in v]
    if not spots:
        return None
    path, s = rng.choice(spots)
    # The model wrote each backslash once, as in the path or regex itself.
    raw = s.replace('"', '\\"')
    text = '"' + raw + '"'
    return render(doc, spot(path, text)), replace_leaf(doc, path, policy_unescaped(raw))


def raw_controls(doc, rng):
    spots = [(p, v) for p, v in leaves(doc) if isinstance(v, str) and ("\n" in v or "\t" in v)]
    if not spots:
        return None
    path, s = rng.choice(spots)
    text = string_literal(s).replace("\\n", "\n").replace("\\t", "\t")
    return render(doc, spot(path, text)), doc


def triple_quotes(doc, rng):
    spots = [
        (p, v)
        for p, v in leaves(doc)
        if isinstance(v, str) and "\\" not in v and '"""' not in v and "'''" not in v
        and not v.endswith(('"', "'"))
    ]
    if not spots:
        return None
    path, s = rng.choice(spots)
    quote = rng.choice(['"""', "'''"])
    return render(doc, spot(path, quote + s + quote)), doc


def unquoted_words(doc, rng):
    def plain(v):
        return isinstance(v, str) and v and all(c.isalnum() or c in " '-." for c in v) and (
            v.strip() == v
        ) and v.lower() not in ("true", "false", "null", "none")

    spots = [(p, v) for p, v in leaves(doc) if plain(v) and (" " in v or rng.random() < 0.3)]
    if not spots:
        return None
    chosen = dict(rng.sample(spots, min(len(spots), rng.randint(1, 3))))
    unquote_keys = rng.random() < 0.6

    def hook(p, v):
        if p in chosen:
            return chosen[p]
        if unquote_keys and len(p) >= 2 and p[-1] == "member" and isinstance(p[-2], str):
            return "%s: %s" % (p[-2], render(v, hook, p[:-1]))
        return None

    return render(doc, hook), doc


def empty_value(doc, rng):
    spots = [(p, k, v) for p, k, v in members(doc) if not isinstance(v, (dict, list))]
    if not spots:
        return None
    path, key, _ = rng.choice(spots)
    text = render(doc, spot(path + (key, "member"), "%s: " % string_literal(key)))
    return text, without(doc, path, key)


def stray_word(doc, rng):
    spots = [(p, k, v) for p, k, v in members(doc)]
    spots = [s for s in spots if list(_object_at(doc, s[0]))[0] != s[1]]
    if not spots:
        return None
    path, key, value = rng.choice(spots)
    word = rng.choice(["note", "also", "and", "next", "then"])
    member = "%s %s: %s" % (word, string_literal(key), render(value, lambda p, v: None))
    return render(doc, spot(path + (key, "member"), member)), doc


def _object_at(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def literal_case(doc, rng):
    spots = [(p, v) for p, v in leaves(doc) if v is None or isinstance(v, bool)]
    if not spots:
        return None
    forms = {True: ["TRUE", "True"], False: ["FALSE", "False"], None: ["NULL", "Null", "None"]}
    chosen = dict(spots)

    def hook(p, v):
        if p in chosen:
            return rng.choice(forms[v])
        return None

    return render(doc, hook), doc


def number_forms(doc, rng):
    spots = [
        (p, v)
        for p, v in leaves(doc)
        if isinstance(v, (int, float)) and not isinstance(v, bool)
        and (abs(v) >= 1000 or float(v).is_integer())
    ]
    if not spots:
        return None
    path, n = rng.choice(spots)
    if abs(n) >= 1000 and float(n).is_integer():
        text = "{:_}".format(int(n))
    else:
        text = "%d." % int(n)
    return render(doc, spot(path, text)), doc


def fence_in_string(doc, rng):
    spots = [(p, v) for p, v in leaves(doc) if isinstance(v, str) and "```" in v]
    if not spots:
        doc = dict(doc, snippet="```sh\nmake test\n```")
    fenced = {p for p, v in leaves(doc) if isinstance(v, str) and "```" in v}
    form = rng.randrange(3)

    def raw_newlines(p, v):
        # Raw newlines in the string that holds the fence: the reply is not strict JSON.
        return string_literal(v).replace("\\n", "\n") if p in fenced and form else None

    text = render(doc, raw_newlines)
    if form == 0:
        reply = "Here you go:\n```json\n%s\n```" % text
    elif form == 1:
        reply = "Sure: " + text
    else:
        reply = "```json\n%s\n```\nLet me know." % text
    return reply, doc


def braces_in_string(doc, rng):
    doc = dict(doc, hint=rng.choice(["use {name} here", 'write it as {"a": 1}', "a set {1, 2}"]))
    text = render(doc, lambda p, v: None)
    decoy = rng.choice(['{"a": 1}', "[1, 2]", '{"example": true}'])
    reply = rng.choice(
        [
            "For example %s is the shape. The call: %s" % (decoy, text),
            "The call: %s\n(a shorter one would be %s)" % (text, decoy),
            "Thinking about %s, I send %s." % (decoy, text),
        ]
    )
    return reply, doc


def valid(doc, rng):
    return (json.dumps(doc, indent=rng.choice([None, 2]), ensure_ascii=rng.random() < 0.5), doc)


CLASSES = [
    ("valid", valid),
    ("unescaped quotes", unescaped_quotes),
    ("backslashes", backslashes),
    ("raw newlines/tabs", raw_controls),
    ("triple quotes", triple_quotes),
    ("unquoted words", unquoted_words),
    ("empty value", empty_value),
    ("stray word", stray_word),
    ("TRUE/Null", literal_case),
    ("1_000 / 2.", number_forms),
    ("fence in string", fence_in_string),
    ("braces in string", braces_in_string),
]
