"""Hashes DobLIX table files: every byte before the properties block, and
the properties block's entries but those that name a time or an identity
(they differ between any two runs). Prints one line per file, then a total."""
import hashlib, sys
from pathlib import Path

VOLATILE = {b"rocksdb.creating.db.identity", b"rocksdb.creating.session.identity",
            b"rocksdb.creation.time", b"rocksdb.file.creation.time", b"rocksdb.oldest.key.time",
            b"doblix.train_micros", b"doblix.serialize_micros", b"rocksdb.creating.host.identity"}


def varint(b, i):
    v = shift = 0
    while True:
        c = b[i]; i += 1
        v |= (c & 0x7f) << shift
        if c < 0x80:
            return v, i
        shift += 7


def entries(block):
    n = int.from_bytes(block[-4:], "little")
    end = len(block) - 4 - 4 * n
    i, last = 0, b""
    while i < end:
        shared, i = varint(block, i)
        non, i = varint(block, i)
        vlen, i = varint(block, i)
        key = last[:shared] + block[i:i + non]; i += non
        val = block[i:i + vlen]; i += vlen
        last = key
        yield key, val


def digest(path):
    data = path.read_bytes()
    foot = data[-53:]
    assert int.from_bytes(foot[-8:], "little") == 0x4a02457cf6b44895, path
    moff, i = varint(foot, 1)
    msize, i = varint(foot, i)
    meta = data[moff:moff + msize]
    handles = dict(entries(meta))
    poff, j = varint(handles[b"rocksdb.properties"], 0)
    psize, j = varint(handles[b"rocksdb.properties"], j)
    h = hashlib.sha256(data[:poff])
    kept = 0
    for k, v in entries(data[poff:poff + psize]):
        if k in VOLATILE:
            continue
        h.update(k + b"=" + v + b";")
        kept += 1
    for k, v in sorted(handles.items()):
        if k != b"rocksdb.properties":
            h.update(k + v)
    return h.hexdigest(), poff, kept


total = hashlib.sha256()
n = 0
for p in sorted(Path(sys.argv[1]).glob("*/*.sst")):
    d, poff, kept = digest(p)
    line = f"{p.parent.name}/{p.name} {d} prefix={poff} props={kept}"
    print(line)
    total.update(line.encode())
    n += 1
print(f"total {n} files {total.hexdigest()}")
