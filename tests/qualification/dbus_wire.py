"""A minimal D-Bus client over a Unix socket (standard library only), so the qualification
suite can watch the accessibility bus on a connection of its own with round trips of about
a millisecond — `gdbus call` costs a process per call (~15 ms), too coarse to place a late
twin within 50 ms of an action.

Only what the suite needs: EXTERNAL authentication, method calls, and the basic, array,
struct, dict and variant types (marshalled little-endian, read in either byte order).
"""

import os
import socket
import struct
import time
import urllib.parse

METHOD_CALL, ERROR = 1, 3
_FIELD_PATH, _FIELD_INTERFACE, _FIELD_MEMBER, _FIELD_ERROR_NAME = 1, 2, 3, 4
_FIELD_REPLY_SERIAL, _FIELD_DESTINATION, _FIELD_SIGNATURE = 5, 6, 8

_FIXED = {"y": ("B", 1), "b": ("I", 4), "n": ("h", 2), "q": ("H", 2), "i": ("i", 4),
          "u": ("I", 4), "x": ("q", 8), "t": ("Q", 8), "d": ("d", 8), "h": ("I", 4)}
_ALIGN = {**{code: size for code, (_, size) in _FIXED.items()},
          "s": 4, "o": 4, "g": 1, "a": 4, "(": 8, "{": 8, "v": 1}


class DBusError(Exception):
    """The bus or the peer answered with an error, or the connection broke."""


def split_signature(signature):
    """The complete types of SIGNATURE, e.g. 'sa(so)v' -> ['s', 'a(so)', 'v']."""
    types = []
    i = 0
    while i < len(signature):
        end = _complete_type_end(signature, i)
        types.append(signature[i:end])
        i = end
    return types


def _complete_type_end(signature, i):
    code = signature[i]
    if code == "a":
        return _complete_type_end(signature, i + 1)
    if code in "({":
        closing = ")" if code == "(" else "}"
        depth = 0
        for j in range(i, len(signature)):
            if signature[j] in "({":
                depth += 1
            elif signature[j] in ")}":
                depth -= 1
                if depth == 0:
                    if signature[j] != closing:
                        break
                    return j + 1
        raise DBusError(f"unbalanced signature {signature!r}")
    if code in _ALIGN:
        return i + 1
    raise DBusError(f"unsupported type {code!r} in signature {signature!r}")


class _Writer:
    def __init__(self, offset=0):
        self.data = bytearray()
        self.offset = offset  # alignment is relative to the message start

    def pad(self, alignment):
        while (self.offset + len(self.data)) % alignment:
            self.data.append(0)

    def write(self, type_code, value):
        code = type_code[0]
        self.pad(_ALIGN[code])
        if code in _FIXED:
            fmt, _ = _FIXED[code]
            self.data += struct.pack("<" + fmt, int(value) if code == "b" else value)
        elif code in "so":
            raw = value.encode("utf-8")
            self.data += struct.pack("<I", len(raw)) + raw + b"\0"
        elif code == "g":
            raw = value.encode("ascii")
            self.data += struct.pack("<B", len(raw)) + raw + b"\0"
        elif code == "v":
            signature, inner = value
            self.write("g", signature)
            self.write(signature, inner)
        elif code == "(":
            for member, item in zip(split_signature(type_code[1:-1]), value):
                self.write(member, item)
        elif code == "a":
            element = type_code[1:]
            length_at = len(self.data)
            self.data += b"\0\0\0\0"
            self.pad(_ALIGN[element[0]])
            start = len(self.data)
            items = value.items() if element[0] == "{" else value
            for item in items:
                if element[0] == "{":
                    key_type, value_type = split_signature(element[1:-1])
                    self.pad(8)
                    self.write(key_type, item[0])
                    self.write(value_type, item[1])
                else:
                    self.write(element, item)
            struct.pack_into("<I", self.data, length_at, len(self.data) - start)
        else:
            raise DBusError(f"cannot marshal type {type_code!r}")


class _Reader:
    def __init__(self, data, byte_order, offset=0):
        self.data = data
        self.order = byte_order
        self.pos = offset

    def align(self, alignment):
        self.pos += -self.pos % alignment

    def unpack(self, fmt, size):
        (value,) = struct.unpack_from(self.order + fmt, self.data, self.pos)
        self.pos += size
        return value

    def read(self, type_code):
        code = type_code[0]
        self.align(_ALIGN[code])
        if code in _FIXED:
            value = self.unpack(*_FIXED[code])
            return bool(value) if code == "b" else value
        if code in "so":
            length = self.unpack("I", 4)
            text = self.data[self.pos:self.pos + length].decode("utf-8")
            self.pos += length + 1
            return text
        if code == "g":
            length = self.unpack("B", 1)
            text = self.data[self.pos:self.pos + length].decode("ascii")
            self.pos += length + 1
            return text
        if code == "v":
            signature = self.read("g")
            return self.read(signature)
        if code == "(":
            return tuple(self.read(member) for member in split_signature(type_code[1:-1]))
        if code == "a":
            element = type_code[1:]
            length = self.unpack("I", 4)
            self.align(_ALIGN[element[0]])
            end = self.pos + length
            if element[0] == "{":
                key_type, value_type = split_signature(element[1:-1])
                entries = {}
                while self.pos < end:
                    self.align(8)
                    key = self.read(key_type)
                    entries[key] = self.read(value_type)
                return entries
            items = []
            while self.pos < end:
                items.append(self.read(element))
            return items
        raise DBusError(f"cannot read type {type_code!r}")


def _socket_address(address):
    """The AF_UNIX address of the first unix: transport in a D-Bus address string."""
    for transport in address.split(";"):
        kind, _, rest = transport.partition(":")
        if kind != "unix":
            continue
        keys = dict(part.split("=", 1) for part in rest.split(",") if "=" in part)
        if "path" in keys:
            return urllib.parse.unquote(keys["path"])
        if "abstract" in keys:
            return "\0" + urllib.parse.unquote(keys["abstract"])
    raise DBusError(f"no unix transport in D-Bus address {address!r}")


class Connection:
    """One authenticated message-bus connection. call() blocks until its reply."""

    def __init__(self, address, timeout=10.0):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.buffer = b""
        self.serial = 0
        try:
            self.sock.connect(_socket_address(address))
            self._authenticate()
            self.unique_name = self.call("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                         "org.freedesktop.DBus", "Hello")[0]
        except BaseException:
            self.sock.close()
            raise

    def close(self):
        self.sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _authenticate(self):
        uid = str(os.getuid()).encode("ascii").hex()
        self.sock.sendall(b"\0AUTH EXTERNAL " + uid.encode("ascii") + b"\r\n")
        line = self._read_line()
        if not line.startswith(b"OK "):
            raise DBusError(f"authentication refused: {line!r}")
        self.sock.sendall(b"BEGIN\r\n")

    def _read_line(self):
        while b"\r\n" not in self.buffer:
            self._receive()
        line, _, self.buffer = self.buffer.partition(b"\r\n")
        return line

    def _receive(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise DBusError("the bus closed the connection")
        self.buffer += chunk

    def _take(self, count):
        while len(self.buffer) < count:
            self._receive()
        taken, self.buffer = self.buffer[:count], self.buffer[count:]
        return taken

    def call(self, destination, path, interface, member, signature="", args=(), timeout=5.0):
        """Calls MEMBER and returns the reply's body as a tuple; DBusError on an error
        reply or when no reply arrives within TIMEOUT seconds."""
        self.serial += 1
        body = _Writer()
        for type_code, value in zip(split_signature(signature), args):
            body.write(type_code, value)
        fields = [(_FIELD_PATH, ("o", path)), (_FIELD_MEMBER, ("s", member)),
                  (_FIELD_DESTINATION, ("s", destination))]
        if interface:
            fields.append((_FIELD_INTERFACE, ("s", interface)))
        if signature:
            fields.append((_FIELD_SIGNATURE, ("g", signature)))
        header = _Writer()
        header.data += struct.pack("<cBBBII", b"l", METHOD_CALL, 0, 1, len(body.data),
                                   self.serial)
        header.write("a(yv)", fields)
        header.pad(8)
        self.sock.sendall(bytes(header.data) + bytes(body.data))
        return self._wait_reply(self.serial, f"{interface}.{member} on {destination}{path}",
                                time.monotonic() + timeout)

    def _wait_reply(self, serial, what, deadline):
        while True:
            self.sock.settimeout(max(0.001, deadline - time.monotonic()))
            try:
                kind, fields, body = self._read_message()
            except socket.timeout as error:
                raise DBusError(f"{what}: no reply in time") from error
            if fields.get(_FIELD_REPLY_SERIAL) != serial:
                continue  # a signal, or a reply to a call we gave up on
            if kind == ERROR:
                message = body[0] if body and isinstance(body[0], str) else ""
                raise DBusError(f"{what}: {fields.get(_FIELD_ERROR_NAME)}: {message}")
            return body

    def _read_message(self):
        fixed = self._take(16)
        order = "<" if fixed[0:1] == b"l" else ">"
        kind = fixed[1]
        body_length, _, fields_length = struct.unpack_from(order + "III", fixed, 4)
        header_length = 16 + fields_length
        rest = self._take(header_length + (-header_length % 8) - 16 + body_length)
        message = fixed + rest
        reader = _Reader(message, order, 12)
        fields = dict(reader.read("a(yv)"))
        reader.align(8)
        signature = fields.get(_FIELD_SIGNATURE, "")
        body = tuple(reader.read(type_code) for type_code in split_signature(signature))
        return kind, fields, body
