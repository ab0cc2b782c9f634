"""Feather files (Arrow's IPC file format) put together from record batches encoded elsewhere.

A streamed simulation writes one record batch per chunk of games. Compressing a batch is
most of the cost of writing it, so each worker encodes its own chunks (``encode``: the IPC
messages, LZ4-compressed, as bytes) and the process that owns the file only appends them
in order (``FileAssembler``), then writes the file's footer: the schema and where each
message lies. The format is Arrow's "IPC file format" (columnar format specification,
https://arrow.apache.org/docs/format/Columnar.html#ipc-file-format): the magic ``ARROW1``,
the streaming format's messages, a ``Footer`` flatbuffer (``File.fbs``), its length and the
magic again. ``pandas.read_feather`` and ``pyarrow.ipc.open_file`` read it.

    >>> import io, pyarrow as pa
    >>> table = pa.table({"game": [0, 1], "player": pa.array(["Ann", "Ben"]).dictionary_encode()})
    >>> buffer = io.BytesIO()
    >>> with FileAssembler(buffer) as assembler:
    ...     assembler.add(encode(table)); assembler.add(encode(table))
    >>> pa.ipc.open_file(pa.BufferReader(buffer.getvalue())).read_all()["game"].to_pylist()
    [0, 1, 0, 1]
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any, BinaryIO

MAGIC = b"ARROW1"
END_OF_STREAM = b"\xff\xff\xff\xff\x00\x00\x00\x00"
V5 = 4  # Schema.fbs MetadataVersion.V5, the version pyarrow writes


@dataclass(frozen=True)
class Message:
    """One encapsulated IPC message: its bytes, of which the first ``metadata`` are the
    length prefix and the flatbuffer (the rest is the body); a dictionary or a record batch."""

    data: bytes
    metadata: int
    dictionary: bool


@dataclass(frozen=True)
class Encoded:
    """A table as IPC messages: the schema message, then its dictionaries and record batches."""

    schema: bytes
    messages: tuple[Message, ...]


def encode(table: Any, compression: str | None = "lz4") -> Encoded:
    """The IPC messages of a ``pyarrow.Table`` (one record batch per chunk of the table),
    compressed in this thread only."""
    import pyarrow as pa

    sink = pa.BufferOutputStream()
    options = pa.ipc.IpcWriteOptions(compression=compression, use_threads=False)
    with pa.ipc.new_stream(sink, table.schema, options=options) as writer:
        writer.write_table(table)
    stream = sink.getvalue()
    schema, messages, position = b"", [], 0
    for message in pa.ipc.MessageReader.open_stream(stream):
        metadata = 8 + message.metadata.size  # the continuation word and the length
        end = position + metadata + message.body.size
        data = stream[position:end].to_pybytes()
        if message.type == "schema":
            schema = data
        else:
            messages.append(Message(data, metadata, message.type == "dictionary"))
        position = end
    if stream[position:].to_pybytes() != END_OF_STREAM:
        raise ValueError("pyarrow's IPC stream did not end where its messages say")
    return Encoded(schema, tuple(messages))


class FileAssembler:
    """Writes an Arrow IPC file to ``sink`` (an open binary file) from ``Encoded`` tables
    with one schema: their record batches in turn, each dictionary once."""

    def __init__(self, sink: BinaryIO):
        self.sink = sink
        self.schema: bytes | None = None
        self.dictionaries: list[bytes] | None = None  # as the first rows came
        self.blocks: dict[bool, list[tuple[int, int, int]]] = {True: [], False: []}
        self.position = 0

    def add(self, encoded: Encoded) -> None:
        """Append a table's record batches (and, the first time, the schema and dictionaries)."""
        if self.schema is None:
            self.schema = encoded.schema
            self._write(MAGIC + b"\0\0")
            self._write(encoded.schema)
        elif encoded.schema != self.schema:
            raise ValueError("every table of an Arrow file must have the file's schema")
        if not encoded.messages:  # no rows
            return
        dictionaries = [m for m in encoded.messages if m.dictionary]
        if self.dictionaries is None:
            self.dictionaries = [m.data for m in dictionaries]
            for message in dictionaries:
                self._append(message)
        elif [m.data for m in dictionaries] != self.dictionaries:
            raise ValueError(
                "a table's text labels differ from the first table's: an Arrow file "
                "holds one dictionary per column"
            )
        for message in encoded.messages:
            if not message.dictionary:
                self._append(message)

    def _append(self, message: Message) -> None:
        body = len(message.data) - message.metadata
        self.blocks[message.dictionary].append((self.position, message.metadata, body))
        self._write(message.data)

    def close(self) -> None:
        """End the stream and write the footer (nothing is written for no tables)."""
        if self.schema is None:
            return
        self._write(END_OF_STREAM)
        footer = _footer(self.schema, self.blocks[True], self.blocks[False])
        self._write(footer + struct.pack("<i", len(footer)) + MAGIC)
        self.schema = None

    def _write(self, data: bytes) -> None:
        self.sink.write(data)
        self.position += len(data)

    def __enter__(self) -> FileAssembler:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _footer(
    schema_message: bytes,
    dictionaries: list[tuple[int, int, int]],
    batches: list[tuple[int, int, int]],
) -> bytes:
    """``File.fbs``' ``Footer`` flatbuffer: version, schema, dictionary and record batch
    blocks. The schema is the schema message's own ``Schema`` table: the message's
    flatbuffer is copied whole (its offsets are relative, so they stay good) and the footer
    points into it."""
    message = schema_message[8:]  # after the continuation word and the length
    schema = _table_field(message, _root(message), 2)  # Message.header: the Schema table
    out = bytearray()
    out += struct.pack("<I", 16)  # the root: the Footer table at 16
    out += struct.pack("<HHHHHH", 12, 20, 4, 8, 12, 16)  # its vtable at 4: four fields
    out += struct.pack("<ihxx", 12, V5)  # the table at 16: vtable at 16 - 12, version
    fields = len(out)
    out += bytes(12)  # uoffsets to the schema, the dictionaries and the batches: set below
    targets = []
    for blocks in (dictionaries, batches):
        out += bytes(-(len(out) + 4) % 8)  # a Block is 8-aligned
        targets.append(len(out))
        out += struct.pack("<I", len(blocks))
        for offset, metadata, body in blocks:
            out += struct.pack("<qixxxxq", offset, metadata, body)
    out += bytes(-len(out) % 8)
    start = len(out)
    out += message
    targets.insert(0, start + schema)
    for k, target in enumerate(targets):
        field = fields + 4 * k
        out[field : field + 4] = struct.pack("<I", target - field)
    out += bytes(-len(out) % 8)
    return bytes(out)


def _root(buffer: bytes) -> int:
    return struct.unpack_from("<I", buffer, 0)[0]


def _table_field(buffer: bytes, table: int, index: int) -> int:
    """Where the table that field ``index`` of ``table`` points to lies in ``buffer``."""
    vtable = table - struct.unpack_from("<i", buffer, table)[0]
    size = struct.unpack_from("<H", buffer, vtable)[0]
    offset = (
        struct.unpack_from("<H", buffer, vtable + 4 + 2 * index)[0] if 4 + 2 * index < size else 0
    )
    if not offset:
        raise ValueError("the schema message has no schema")
    field = table + offset
    return field + struct.unpack_from("<I", buffer, field)[0]
