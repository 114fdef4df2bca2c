#!/usr/bin/env python3
"""Writes the CLDR part of every language file in locales/ from Babel's copy of CLDR; the words
(name, label, "not rated", the "out of" sentences, the captions, who reviews them, the tags a
file also answers) stay as written by hand.

From CLDR, per file: the layout direction (the character order), the decimal separator and the
digits of the language's default numbering system, the regions whose default numbers differ from
the language's (ar-SA writes ٣٫٥ where ar writes 3.5), and the cardinal plural rules. Babel keeps
CLDR's rules but not the samples CLDR lists after them, so each rule's samples are the integers
0…1000 and the one-decimal numbers 0.0…100.0 (and a few powers of ten) that Babel's own
evaluation of the rule puts in the category: the tests then check every one against the
service's evaluation, two implementations agreeing on thousands of numbers.

    .venv-tools/bin/python scripts/generate-locales.py           # rewrite the files
    .venv-tools/bin/python scripts/generate-locales.py --check   # exit 1 naming each file that differs

scripts/setup.sh --tests installs Babel, pinned, into .venv-tools.
"""
import json, os, sys, unicodedata
from decimal import Decimal

import babel
from babel import Locale, numbers
from babel.core import get_cldr_version
from babel.localedata import locale_identifiers

BABEL_VERSION = "2.19.0"  # the pin in scripts/setup.sh
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOCALES = os.path.join(ROOT, "locales")
CATEGORIES = ["zero", "one", "two", "few", "many", "other"]
HAND_WRITTEN = ["language", "name", "reviewers", "answersFor", "accessibilityLabel", "notRated", "outOf", "captions"]

# CLDR numbering systems → the Unicode name of their digit zero; the other nine follow it.
DIGIT_ZERO = {
    "latn": "DIGIT ZERO", "arab": "ARABIC-INDIC DIGIT ZERO", "arabext": "EXTENDED ARABIC-INDIC DIGIT ZERO",
    "beng": "BENGALI DIGIT ZERO", "deva": "DEVANAGARI DIGIT ZERO", "gujr": "GUJARATI DIGIT ZERO",
    "guru": "GURMUKHI DIGIT ZERO", "knda": "KANNADA DIGIT ZERO", "mlym": "MALAYALAM DIGIT ZERO",
    "orya": "ORIYA DIGIT ZERO", "tamldec": "TAMIL DIGIT ZERO", "telu": "TELUGU DIGIT ZERO", "thai": "THAI DIGIT ZERO",
    "mymr": "MYANMAR DIGIT ZERO", "khmr": "KHMER DIGIT ZERO", "laoo": "LAO DIGIT ZERO", "tibt": "TIBETAN DIGIT ZERO",
}


def digits(system):
    if system not in DIGIT_ZERO:
        raise SystemExit(f"numbering system {system} has no digit zero in DIGIT_ZERO; add its Unicode name")
    zero = ord(unicodedata.lookup(DIGIT_ZERO[system]))
    text = "".join(chr(zero + d) for d in range(10))
    assert [unicodedata.digit(c) for c in text] == list(range(10)), system
    return text


def number_style(locale):
    system = locale.default_numbering_system
    return {"decimalSeparator": numbers.get_decimal_symbol(locale, numbering_system="default"), "digits": digits(system)}


def regions(locale, own_files):
    """Territories whose locale writes numbers unlike `locale` does, by territory code."""
    base = number_style(locale)
    found = {}
    for identifier in locale_identifiers():
        other = Locale.parse(identifier)
        if (other.language, other.script, other.variant) != (locale.language, locale.script, None) or not other.territory:
            continue
        if other.territory == "001" or str(other).replace("_", "-").lower() in own_files:
            continue
        style = number_style(other)
        if style != base:
            found[other.territory] = style
    return dict(sorted(found.items()))


def condition(node):
    """Babel's parsed rule as CLDR's syntax (TR35 Part 3 §5.1): `or` of `and` chains of relations."""
    kind, body = node
    if kind == "or":
        return f"{condition(body[0])} or {condition(body[1])}"
    if kind == "and":
        return f"{condition(body[0])} and {condition(body[1])}"
    if kind == "not":
        return relation(body[0], "!=")
    if kind == "relation":
        return relation(node, "=")
    raise SystemExit(f"unexpected rule node {kind}")


def relation(node, operator):
    kind, (method, expression, ranges) = node
    if kind != "relation" or method != "in":
        raise SystemExit(f"unexpected relation {node}")
    return f"{operand(expression)} {operator} {range_list(ranges)}"


def operand(expression):
    kind, body = expression
    if kind == "mod":
        return f"{operand(body[0])} % {body[1][1][0]}"
    if kind in ("n", "i", "v", "w", "f", "t", "e", "c"):
        return kind
    raise SystemExit(f"unexpected operand {expression}")


def range_list(ranges):
    _, items = ranges
    return ",".join(str(low[1][0]) if low == high else f"{low[1][0]}..{high[1][0]}" for low, high in items)


def runs(values, step, text):
    """Numbers in order as CLDR writes samples: runs of three or more as `a~b`, at most ten entries."""
    entries, start = [], 0
    while start < len(values):
        end = start
        while end + 1 < len(values) and values[end + 1] - values[end] == step:
            end += 1
        if end - start >= 2:
            entries.append(f"{text(values[start])}~{text(values[end])}")
        else:
            entries.extend(text(v) for v in values[start:end + 1])
        start = end + 1
    return ", ".join(entries[:10] + (["…"] if len(entries) > 10 else []))


def plural_rules(locale):
    rule = locale.plural_form
    integers = list(range(0, 1001)) + [10_000, 100_000, 1_000_000]
    decimals = [Decimal(k) / 10 for k in range(0, 1001)] + [Decimal(f"{10 ** p}.0") for p in range(3, 7)]
    conditions = {category: condition(node) for category, node in rule.abstract}
    rules = {}
    for category in CATEGORIES:
        if category != "other" and category not in conditions:
            continue
        whole = [i for i in integers if rule(i) == category]
        fractional = [d for d in decimals if rule(Decimal(f"{d:.1f}")) == category]
        text = conditions.get(category, "")
        if whole:
            text += " @integer " + runs(whole, 1, str)
        if fractional:
            text += " @decimal " + runs(fractional, Decimal("0.1"), lambda d: f"{d:.1f}")
        rules[category] = text
    return rules


def generated(tag, own_files):
    locale = Locale.parse(tag.replace("-", "_"))
    return {
        "layoutDirection": "rightToLeft" if locale.character_order == "right-to-left" else "leftToRight",
        "numbers": number_style(locale),
        "regions": regions(locale, own_files),
        "pluralRules": plural_rules(locale),
        "cldr": {"version": str(get_cldr_version()), "babel": babel.__version__},
    }


def inline(value):
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def render(data):
    """The file as the repository keeps it: one key per line, small objects and arrays inline."""
    lines = []
    order = HAND_WRITTEN[:4] + ["layoutDirection", "numbers", "regions", "pluralRules", "cldr"] + HAND_WRITTEN[4:]
    for key in order:
        if key not in data:
            continue
        value = data[key]
        if key in ("pluralRules", "outOf", "regions") and value:
            members = [f"    {inline(k)}: {inline(v)}" for k, v in value.items()]
            lines.append(f"  {inline(key)}: {{\n" + ",\n".join(members) + "\n  }")
        else:
            lines.append(f"  {inline(key)}: {inline(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main():
    check = "--check" in sys.argv[1:]
    if babel.__version__ != BABEL_VERSION:
        raise SystemExit(f"Babel {babel.__version__} is installed; this generator is pinned to {BABEL_VERSION} (scripts/setup.sh --tests)")
    files = sorted(name for name in os.listdir(LOCALES) if name.endswith(".json"))
    own = {name[:-5].lower() for name in files}
    differing = []
    for name in files:
        path = os.path.join(LOCALES, name)
        with open(path, encoding="utf-8") as f:
            current = f.read()
        data = json.loads(current)
        unknown = set(data) - set(HAND_WRITTEN) - {"layoutDirection", "numbers", "regions", "pluralRules", "cldr"}
        if unknown:
            raise SystemExit(f"{name}: unknown keys {sorted(unknown)}")
        words = {key: data[key] for key in HAND_WRITTEN if key in data}
        fresh = render({**words, **generated(data["language"], own)})
        categories = list(json.loads(fresh)["pluralRules"])
        if sorted(words.get("outOf", {})) != sorted(categories):
            print(f"{name}: outOf needs one sentence for each of {', '.join(categories)}", file=sys.stderr)
        if fresh != current:
            differing.append(name)
            if not check:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(fresh)
    if check and differing:
        print("these files differ from what scripts/generate-locales.py writes: " + ", ".join(differing), file=sys.stderr)
        sys.exit(1)
    print(f"{len(files)} language files {'checked' if check else 'written'} (CLDR {get_cldr_version()}, Babel {babel.__version__})")


if __name__ == "__main__":
    main()
