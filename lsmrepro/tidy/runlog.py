"""Reads lsmbench's JSON-lines run logs, validating every record against
engines/driver/log_schema.yaml with each variant's engine fields merged in
(engines/<folder>/log.yaml, engines/log_fields.py). A log that was cut off (a killed job), has
a record of the wrong shape, or does not end in a successful `end` record
raises InputError naming the file, the line and what was expected: such a
log is never taken for a result."""
import json
from dataclasses import dataclass, field
from functools import lru_cache

import jsonschema

from base.errors import InputError
from engines import log_fields


@lru_cache(maxsize=1)
def _validators():
    schema = log_fields.log_schema()
    defs = schema["$defs"]
    out = {}
    for name, sub in defs.items():
        if isinstance(sub, dict) and sub.get("properties", {}).get("type"):
            out[name] = jsonschema.Draft202012Validator({**sub, "$defs": defs})
    return out


@dataclass
class Record:
    line: int  # 1-based line number in the log: where a tidy number came from
    data: dict


@dataclass
class RunLog:
    path: str
    records: list = field(default_factory=list)

    @property
    def run(self):
        return self.records[0].data

    def of_type(self, kind):
        return [r for r in self.records if r.data["type"] == kind]


def read(path):
    path = str(path)
    validators = _validators()
    log = RunLog(path)
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise InputError(path, "", f"cannot read ({e.strerror})") from None
    if raw and not raw.endswith(b"\n"):
        n = raw.count(b"\n") + 1
        raise InputError(path, f"line {n}", "record cut off mid-line (killed job?); the log is not a result")
    for n, text in enumerate(raw.decode("utf-8", errors="replace").splitlines(), start=1):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise InputError(path, f"line {n}", f"a JSON object expected ({e.msg})") from None
        kind = data.get("type") if isinstance(data, dict) else None
        if kind not in validators:
            raise InputError(path, f"line {n}: type", f"one of {', '.join(validators)} expected, got {kind!r}")
        errors = sorted(validators[kind].iter_errors(data), key=lambda e: len(e.absolute_path))
        if errors:
            e = errors[0]
            where = ".".join(map(str, e.absolute_path)) or "record"
            raise InputError(path, f"line {n}: {kind}.{where}", e.message)
        log.records.append(Record(n, data))
    if not log.records or log.records[0].data["type"] != "run":
        raise InputError(path, "line 1", "a `run` record expected first")
    last = log.records[-1].data
    if last["type"] != "end":
        raise InputError(path, f"line {len(log.records)}", "an `end` record expected last (killed job?)")
    if last["status"] != "ok":
        raise InputError(path, f"line {len(log.records)}: end.status", f"ok expected, got {last['status']!r}")
    return log
