#!/usr/bin/env python3
"""Generates vectors.json: what the Python adapter's canonical request digest makes of raw bodies.

The Python adapter hashes json.dumps(json.loads(body), sort_keys=True, separators=(",", ":"),
ensure_ascii=False) encoded as UTF-8 (reference iac-code-agui-behaviour.md section 6.4).
src/wire/canonical-digest.spec.ts checks the TypeScript port against every vector.

Standard library only. Run from the repository root:
    python3 test/support/digest-vectors/generate.py
The output is deterministic (fixed random seed), so a re-run must not change vectors.json.
"""

import hashlib
import json
import math
import random
import struct
import sys
from pathlib import Path

HAND_WRITTEN = [
    ("empty object", "{}"),
    ("empty array", "[]"),
    ("scalars", '[null,true,false,"",0,-0,1,-1]'),
    ("whitespace everywhere", ' \t\r\n{ "b" : [ 1 , 2 ] ,\n"a" : { } }\r\n'),
    ("keys sorted recursively", '{"b":{"z":1,"y":[{"d":1,"c":2}]},"a":0}'),
    ("integer-like keys sort as strings", '{"10":1,"2":2,"1":3,"a":4,"":5}'),
    ("duplicate keys keep the last value", '{"a":1,"b":2,"a":3}'),
    ("__proto__ is an ordinary key", '{"__proto__":{"x":1},"constructor":2}'),
    ("float one", "[1.0]"),
    ("floats with exponents", "[1e5,1E5,1e16,1e15,1.5e-7,1e-5,1e-4,0.0001,123456789.125,1e22,1e21]"),
    ("negative zero float and int", "[-0.0,-0,0.0,0e0,-0e10]"),
    ("float precision", "[0.1,0.2,0.30000000000000004,3.141592653589793,2.718281828459045,1.7976931348623157e308]"),
    ("float denormals", "[5e-324,2.2250738585072014e-308,4.9406564584124654e-324]"),
    ("float overflow and underflow", "[1e400,-1e400,1e-400,-1e-400]"),
    ("float with many digits", "[0.1000000000000000055511151231257827,1.00000000000000011102230246251565]"),
    ("integral floats", "[100.0,1e2,12345678901234567.0,9007199254740993.0,1e15,999999999999999.9]"),
    ("big integers", "[9007199254740993,-9007199254740993,123456789012345678901234567890,18446744073709551616]"),
    ("huge integer", "[" + "9" * 4300 + "]"),
    ("non-finite literals", "[NaN,Infinity,-Infinity]"),
    ("escapes", r'["quote\" backslash\\ slash\/ \b\f\n\r\t", "\u0000\u001f\u007f\u0080"]'),
    ("raw non-ASCII kept", '{"clé":"välue","会话":"中文","emoji":"😀"}'),
    ("escaped non-ASCII kept literally", r'["\u00e9\u4f1a\ud83d\ude00"]'),
    ("line and paragraph separators", '["\u2028\u2029"]'),
    ("astral keys sort by code point", '{"\U0001F600":1,"\uFFFF":2,"\uE000":3,"a":4,"\U00010000":5}'),
    ("astral strings", '["\U0001F600\U0001F64F","\U00010348","𝄞"]'),
    ("escaped astral keys", r'{"\ud83d\ude00":1,"\uffff":2}'),
    ("nested arrays and objects", '[[[]],[{}],{"a":[{"b":[1,2.5,{"c":null}]}]}]'),
    ("run request shape", json.dumps({
        "threadId": "thread-1", "runId": "run-1", "state": {}, "tools": [], "context": [],
        "messages": [{"id": "m1", "role": "user", "content": "Deploy ECS 😀 in cn-hangzhou"}],
        "forwardedProps": {"iacCode": {"schemaVersion": 1, "rosInvocationId": "invocation-1",
                                       "cwd": "/tmp/ws", "llmApiKey": "sk-secret", "temperature": 0.7}},
    }, ensure_ascii=False)),
    ("utf-8 BOM", "\ufeff{\"a\":1}"),
    ("lone high surrogate", r'["\ud800"]'),
    ("lone low surrogate key", r'{"\udc00":1}'),
    ("reversed surrogate pair", r'["\ude00\ud83d"]'),
    ("invalid: trailing comma", "[1,]"),
    ("invalid: leading zero", "[01]"),
    ("invalid: raw control character", '["a\u0001b"]'),
    ("invalid: single quotes", "{'a':1}"),
    ("invalid: bad escape", r'["\x41"]'),
    ("invalid: short unicode escape", r'["\u12"]'),
    ("invalid: number with trailing dot", "[1.]"),
    ("invalid: bare exponent", "[1e]"),
    ("invalid: extra data", "{} {}"),
    ("invalid: empty", ""),
    ("invalid: integer over 4300 digits", "[" + "9" * 4301 + "]"),
    ("invalid: nan lower case", "[nan]"),
]


def random_float_texts(rng):
    texts = []
    for _ in range(150):
        bits = rng.getrandbits(64)
        value = struct.unpack("<d", struct.pack("<Q", bits))[0]
        if math.isfinite(value):
            texts.append(repr(value))
    for _ in range(150):
        mantissa = rng.randint(1, 10 ** rng.randint(1, 17))
        exponent = rng.randint(-30, 30)
        sign = "-" if rng.random() < 0.3 else ""
        texts.append(f"{sign}{mantissa}e{exponent}")
    for _ in range(100):
        texts.append(f"{rng.uniform(-1e6, 1e6):.{rng.randint(0, 20)}f}")
    return texts


def vector(name, raw):
    entry = {"name": name, "raw": raw}
    try:
        value = json.loads(raw.encode("utf-8", "surrogatepass"))
    except (ValueError, RecursionError):
        entry["error"] = "INVALID_JSON"
        return entry
    canonical = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    entry["canonical"] = canonical
    try:
        entry["digest"] = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    except UnicodeEncodeError:
        entry["error"] = "INVALID_INPUT"
    return entry


def main():
    sys.set_int_max_str_digits(4300)  # Python's default; pinned so the vectors do not depend on the host
    rng = random.Random(20260101)
    vectors = [vector(name, raw) for name, raw in HAND_WRITTEN]
    vectors += [vector(f"random float {text}", f"[{text}]") for text in random_float_texts(rng)]
    out = Path(__file__).with_name("vectors.json")
    # ensure_ascii=True so lone surrogates survive the file as \\uXXXX escapes.
    out.write_text(json.dumps({"python": sys.version.split()[0], "vectors": vectors}, indent=1) + "\n")


if __name__ == "__main__":
    main()
