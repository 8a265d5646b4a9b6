#!/usr/bin/python3
# make_sim_seeds.py OUTDIR — writes the seed corpus of fuzz_sim: one well-formed request frame (or a
# short pipeline) per file, for each API the sim serves. Run once; the output is checked in.
import os
import struct
import sys


def s16(v): return struct.pack(">h", v)
def s32(v): return struct.pack(">i", v)
def s64(v): return struct.pack(">q", v)
def string(v): return s16(len(v)) + v
def cstring(v): return uvarint(len(v) + 1) + v  # compact string
def uvarint(v):
    out = b""
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])
def arr(items): return s32(len(items)) + b"".join(items)
def carr(items): return uvarint(len(items) + 1) + b"".join(items)
TAGS = b"\x00"


def frame(key, ver, body, flex=False, corr=1, client=b"fuzz"):
    hdr = s16(key) + s16(ver) + s32(corr) + string(client) + (TAGS if flex else b"")
    msg = hdr + body
    return s32(len(msg)) + msg


seeds = {
    "api_versions_v0": frame(18, 0, b""),
    "api_versions_v3": frame(18, 3, cstring(b"lagtop") + cstring(b"1.0") + TAGS, flex=True),
    "metadata_v1_all": frame(3, 1, s32(-1)),
    "metadata_v1_topic": frame(3, 1, arr([string(b"fx-orders")])),
    "metadata_v9": frame(3, 9, carr([uvarint(0) + cstring(b"fx-orders") + TAGS]) + b"\x01\x00\x00" + TAGS, flex=True),
    "find_coordinator_v0": frame(10, 0, string(b"fx-stable")),
    "find_coordinator_v2": frame(10, 2, string(b"fx-stable") + b"\x00"),
    "list_groups_v0": frame(16, 0, b""),
    "list_groups_v2": frame(16, 2, b""),
    "describe_groups_v0": frame(15, 0, arr([string(b"fx-stable"), string(b"fx-empty"), string(b"nope")])),
    "describe_groups_v3": frame(15, 3, arr([string(b"fx-stable")]) + b"\x01"),
    "offset_fetch_v1": frame(9, 1, string(b"fx-stable") + arr([string(b"fx-orders") + arr([s32(0), s32(1), s32(2)])])),
    "offset_fetch_v3_all": frame(9, 3, string(b"fx-empty") + s32(-1)),
    "offset_commit_v2": frame(8, 2, string(b"fx-empty") + s32(-1) + string(b"") + s64(-1) +
                              arr([string(b"fx-orders") + arr([s32(0) + s64(42) + string(b"m")])])),
    "list_offsets_v1": frame(2, 1, s32(-1) + arr([string(b"fx-orders") + arr([s32(0) + s64(-2), s32(1) + s64(-1)])])),
    "list_offsets_v4": frame(2, 4, s32(-1) + b"\x00" + arr([string(b"fx-orders") + arr([s32(0) + s32(-1) + s64(1700000000000)])])),
    "delete_groups_v0": frame(42, 0, arr([string(b"fx-empty")])),
    "create_topics_v0": frame(19, 0, arr([string(b"new-t") + s32(2) + s16(1) + arr([]) + arr([])]) + s32(1000)),
    "offset_delete_v0": frame(47, 0, string(b"fx-empty") + arr([string(b"fx-orders") + arr([s32(0)])])),
    "join_group_v0": frame(11, 0, string(b"g-new") + s32(10000) + string(b"") + string(b"consumer") +
                           arr([string(b"range") + s32(0)])),
    "heartbeat_v0": frame(12, 0, string(b"fx-stable") + s32(1) + string(b"m")),
    # Kafka 4.x (sim4x): flexible DescribeGroups and ListGroups, their filters, ConsumerGroupDescribe, and
    # versions KIP-896 removed (they close the connection).
    "describe_groups_v5": frame(15, 5, carr([cstring(b"fx-stable"), cstring(b"fx-kip848")]) + b"\x00" + TAGS,
                                flex=True),
    "describe_groups_v6": frame(15, 6, carr([cstring(b"fx-kip848"), cstring(b"nope")]) + b"\x01" + TAGS, flex=True),
    "list_groups_v3": frame(16, 3, TAGS, flex=True),
    "list_groups_v4_states": frame(16, 4, carr([cstring(b"Stable"), cstring(b" assigning ")]) + TAGS, flex=True),
    "list_groups_v5_types": frame(16, 5, carr([cstring(b"stable")]) + carr([cstring(b"CONSUMER"), cstring(b"x")]) +
                                  TAGS, flex=True),
    "consumer_group_describe_v0": frame(69, 0, carr([cstring(b"fx-kip848"), cstring(b"fx-stable"), cstring(b"")]) +
                                        b"\x00" + TAGS, flex=True),
    "consumer_group_describe_v1": frame(69, 1, carr([cstring(b"fx-kip848"), cstring(b"nope")]) + b"\x01" + TAGS,
                                        flex=True),
    "create_topics_v2": frame(19, 2, arr([string(b"new-t") + s32(2) + s16(1) + arr([]) + arr([])]) + s32(1000) +
                              b"\x00"),
    "offset_commit_v1_removed": frame(8, 1, string(b"fx-empty") + s32(-1) + string(b"") +
                                      arr([string(b"fx-orders") + arr([s32(0) + s64(42) + s64(-1) + string(b"m")])])),
    "unknown_api": frame(999, 0, b"\x00\x01"),
    "too_new_version": frame(3, 99, b""),
}
seeds["pipeline"] = seeds["api_versions_v0"] + seeds["metadata_v1_all"] + seeds["describe_groups_v0"] + \
    seeds["offset_fetch_v1"]
seeds["pipeline_kip848"] = seeds["list_groups_v5_types"] + seeds["consumer_group_describe_v1"] + \
    seeds["describe_groups_v6"]
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
