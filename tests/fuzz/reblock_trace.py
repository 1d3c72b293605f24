#!/usr/bin/env python3
"""Rewrites a .tst trace with at most N events per block (traces/format.hpp), for small seeds.

The recorder writes blocks of 4096 events, so a trace whose lanes have several blocks is tens of
kilobytes; re-blocked, a small trace exercises the same lane continuity, merging and footer
back-references in a few kilobytes. Events, header and footer are unchanged; block headers,
checksums and the trailer are rewritten.

    tests/fuzz/reblock_trace.py IN.tst OUT N
"""
import struct
import sys

MASK32 = (1 << 32) - 1
SLOTS = 1024  # traces/format.hpp seq_slots: the codec's table of last seqs by sender


def crc32c(data, crc=0):
    crc ^= 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def varint(b, i):
    v = shift = 0
    while True:
        x = b[i]
        i += 1
        v |= (x & 0x7F) << shift
        shift += 7
        if not x & 0x80:
            return v, i


def svarint(b, i):
    v, i = varint(b, i)
    return (v >> 1) ^ -(v & 1), i


def put_varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return out


def put_svarint(v):
    return put_varint((v << 1) ^ (v >> 63) if v < 0 else v << 1)


class SeqTable:
    """The codec's direct-mapped table of each sender's last seq (traces/event_codec.hpp)."""

    def __init__(self):
        self.sender = [0] * SLOTS
        self.last = [0] * SLOTS

    def swap(self, s, seq):
        i = s & (SLOTS - 1)
        base = self.last[i] if self.sender[i] == s else 0
        self.sender[i], self.last[i] = s, seq
        return base


def decode(payload, count, first_time):
    events, i, time, actor, seqs = [], 0, first_time, 0, SeqTable()
    for _ in range(count):
        head = payload[i]
        i += 1
        if head & 0x10:
            dt, i = svarint(payload, i)
            time += dt
        if head & 0x20:
            da, i = svarint(payload, i)
            actor = (actor + da) & 0xFFFFFFFF
        message = other = 0
        if head & 0x40:
            ds, i = svarint(payload, i)
            sender = actor + ds
            dq, i = svarint(payload, i)
            seq = (seqs.swap(sender, 0) + dq) & MASK32
            seqs.swap(sender, seq)
            message = (sender << 32) | seq
        if head & 0x80:
            other, i = varint(payload, i)
        events.append((head & 0x0F, time, actor, message, other))
    assert i == len(payload), "payload not consumed"
    return events


def encode(events):
    out, time, actor, seqs = bytearray(), events[0][1], 0, SeqTable()
    for kind, t, a, message, other in events:
        head, body = kind, bytearray()
        if t != time:
            head |= 0x10
            body += put_svarint(t - time)
            time = t
        if a != actor:
            head |= 0x20
            body += put_svarint(a - actor)
            actor = a
        if message:
            head |= 0x40
            sender, seq = message >> 32, message & MASK32
            body += put_svarint(sender - a) + put_svarint(seq - seqs.swap(sender, seq))
        if other:
            head |= 0x80
            body += put_varint(other)
        out.append(head)
        out += body
    return out


def block(kind, lane, count, first_time, first_index, payload):
    h = b"TBLK" + struct.pack("<BBHIIQQI", kind, 0, lane, count, len(payload), first_time, first_index, crc32c(payload))
    return h + struct.pack("<I", crc32c(h)) + payload


def main():
    src, dst, per = sys.argv[1], sys.argv[2], int(sys.argv[3])
    b = open(src, "rb").read()
    (length,) = struct.unpack_from("<I", b, 12)
    at = 16 + length + 4
    out = bytearray(b[:at])
    blocks, index = 0, {}
    while True:
        kind, _codec, lane, count, plen, first_time, _first_index = struct.unpack_from("<BBHIIQQ", b, at + 4)
        payload = b[at + 40 : at + 40 + plen]
        if kind == 2:  # the footer, then the trailer
            footer_at = len(out)
            out += block(2, lane, 0, first_time, 0, payload)
            t = struct.pack("<QQ", footer_at, blocks)
            out += t + struct.pack("<I", crc32c(t)) + b"TEND"
            break
        events = decode(payload, count, first_time)
        for k in range(0, len(events), per):
            part = events[k : k + per]
            out += block(1, lane, len(part), part[0][1], index.get(lane, 0), encode(part))
            index[lane] = index.get(lane, 0) + len(part)
            blocks += 1
        at += 40 + plen
    open(dst, "wb").write(out)


if __name__ == "__main__":
    main()
