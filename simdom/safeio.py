"""Files in and out, safely: untrusted JSON and TOML read with bounded nesting and number length, and every
file simdom writes written whole (a temporary file renamed into place) or not at all.

Every file and option simdom parses (scenario files, deal scripts, ``--set`` values, manifests, trace
records) goes through :func:`loads_json`, :func:`loads_toml` or :func:`check_depth`: a document nested
deeper than :data:`MAX_DEPTH` levels, or with an integer longer than Python converts (4,300 digits), is
refused with :class:`InputError` naming the input, instead of a RecursionError or ValueError deep inside
the program. simdom's own documents nest at most 5 levels (a trace's actions, a rule's first-double
bonus pairs).
"""
from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import stat
import tomllib
from pathlib import Path
from typing import IO, Any, Iterator

from .signals import WRITING

#: the deepest nesting of lists and tables accepted in any input (simdom writes at most 5)
MAX_DEPTH = 32


class InputError(ValueError):
    """A document that cannot be read: its syntax, nesting or size (names the input)."""


def shown(value: Any, width: int = 60) -> str:
    """``repr(value)`` for a message: cut to ``width`` characters (a huge or deeply nested value too)."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an integer past Python's 4,300 digits, or nesting too deep
        return "<an integer too long to show>" if isinstance(value, int) else "<a value too deep to show>"
    return text if len(text) <= width else text[:width - 5] + " ..." + text[-1]


def depth(value: Any) -> int:
    """How deeply lists and tables nest in ``value`` (a scalar: 0), found without recursion; stops
    counting past :data:`MAX_DEPTH`."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            v = list(v.values())
        if isinstance(v, (list, tuple)):
            deepest = max(deepest, d)
            if d > MAX_DEPTH:
                return d
            stack.extend((x, d + 1) for x in v)
    return deepest


def check_depth(value: Any, where: str) -> Any:
    """``value`` itself if it nests at most :data:`MAX_DEPTH` levels, else InputError naming ``where``."""
    if depth(value) > MAX_DEPTH:
        raise InputError(f"{where}: nested more than {MAX_DEPTH} levels deep; allowed: at most {MAX_DEPTH} levels "
                         "of lists and tables")
    return value


def refusal(where: str, kind: str, e: BaseException) -> InputError:
    """The error for ``e``, raised by a parser of ``kind`` (JSON, TOML) reading ``where``."""
    if isinstance(e, RecursionError):
        return InputError(f"{where}: nested too deeply to read; allowed: at most {MAX_DEPTH} levels of lists and "
                          "tables")
    text = str(e)
    if "given twice" in text:  # a JSON key twice (unique_keys)
        return InputError(f"{where}: {text.splitlines()[0][:160]}")
    if "Cannot overwrite a value" in text:  # a TOML key twice
        return InputError(f"{where}: a key is given twice ({text.splitlines()[0][:120]}); allowed: each key once")
    if "digits" in text and "integer" in text:  # Python's limit on converting long integers
        return InputError(f"{where}: an integer with more than 4,300 digits; allowed: integers within each "
                          "value's range (simdom rules lists the rule parameters')")
    return InputError(f"{where}: not valid {kind}: {text.splitlines()[0][:120] if text else type(e).__name__}")


#: the byte-order mark some editors (Notepad) put before UTF-8 text: read past, as Python's utf-8-sig does
BOM = "\ufeff"


def loads_json(text: str | bytes, where: str) -> Any:
    """``json.loads`` with bounded nesting and integer length; InputError naming ``where`` otherwise."""
    try:
        value = json.loads(text.removeprefix(BOM) if isinstance(text, str) else text, object_pairs_hook=unique_keys)
    except (ValueError, RecursionError) as e:  # JSONDecodeError is a ValueError
        raise refusal(where, "JSON", e) from None
    return check_depth(value, where)


def loads_toml(text: str, where: str) -> dict[str, Any]:
    """``tomllib.loads`` with bounded nesting and integer length (a leading byte-order mark read past); InputError
    naming ``where`` otherwise."""
    try:
        value = tomllib.loads(text.removeprefix(BOM))
    except (ValueError, RecursionError) as e:  # TOMLDecodeError is a ValueError
        raise refusal(where, "TOML", e) from None
    return check_depth(value, where)


def not_a_file(path: str | Path) -> str | None:
    """Why ``path`` cannot be read as a regular file, in words (``a FIFO``, ``a symlink loop``, ``no such
    file``), or None when it can."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if os.path.islink(path):
            return f"a symlink to {os.readlink(path)}, which does not exist"
        return "no such file"
    except OSError as e:
        return "a symlink loop" if e.errno == errno.ELOOP else (e.strerror or str(e))
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    return ("a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device") + \
        ", not a regular file"


def read_regular(path: str | Path, allowed: str) -> bytes:
    """The bytes of a regular file; InputError naming what else ``path`` is (a FIFO, a device, a folder, no
    such file) and ``allowed``, never waiting on a FIFO nobody writes (opened without blocking, checked
    by the open descriptor)."""
    path = Path(path)
    problem = not_a_file(path)
    if problem is None:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        except OSError as e:
            problem = e.strerror or str(e)
        else:
            with os.fdopen(fd, "rb") as fh:
                if stat.S_ISREG(os.fstat(fd).st_mode):
                    return fh.read()
                problem = "not a regular file"
    raise InputError(f"{path} is {problem}; allowed: {allowed}" if problem != "no such file" else
                     f"{path}: no such file; allowed: {allowed}")


@contextlib.contextmanager
def reading_lines(path: str | Path, allowed: str) -> Iterator[Iterator[bytes]]:
    """The lines of a file, a device, or a FIFO a process writes (a shell's ``<(simdom trace ...)``), read as
    they come; InputError at once for a FIFO that no process writes, on which a plain open would wait
    forever (opened without blocking: a first read finding no writer returns nothing at once)."""
    path = Path(path)
    if not stat.S_ISFIFO(os.stat(path).st_mode):
        with open(path, "rb") as fh:
            yield iter(fh)
        return
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as fh:
        try:
            first = os.read(fd, 1 << 16)
        except BlockingIOError:  # a process writes it and has written nothing yet
            first = None
        if first == b"":
            raise InputError(f"{path} is a FIFO that no process writes; allowed: {allowed}")
        os.set_blocking(fd, True)
        yield _joined(first or b"", fh)


def _joined(head: bytes, fh: IO[bytes]) -> Iterator[bytes]:
    """The lines of ``head`` followed by the rest of ``fh``."""
    while True:
        nl = head.find(b"\n")
        if nl < 0:
            more = fh.readline()
            if not more:
                break
            head += more
            continue
        yield head[:nl + 1]
        head = head[nl + 1:]
    if head:
        yield head


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose every key is given once (json's object_pairs_hook): a key given twice is refused,
    never silently resolved to its last value."""
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"key {shown(k, 40)} is given twice; allowed: each key once")
        out[k] = v
    return out


# ---- writing ---------------------------------------------------------------------------------------------
def _kind(path: Path) -> str | None:
    """What is at ``path``: None (nothing), "file", "folder" or "special" (a device, FIFO or socket)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError:  # a path through a file, a folder we may not read: the open names it
        return None
    return "file" if stat.S_ISREG(mode) else "folder" if stat.S_ISDIR(mode) else "special"


def replaces(path: str | Path) -> bool:
    """Writing ``path`` would replace an existing regular file (so --overwrite is needed; a
    device, FIFO or socket is written to directly and loses nothing)."""
    return _kind(Path(path)) == "file"


def _stale(path: Path) -> None:
    """Remove the temporary files of ``path`` left by a writer that was killed (SIGKILL: no cleanup ran)."""
    for tmp in path.parent.glob(f".{path.name}.*.tmp"):
        pid = tmp.name[len(path.name) + 2:-4]
        if pid.isdigit() and int(pid) != os.getpid():
            try:
                os.kill(int(pid), 0)
            except ProcessLookupError:
                tmp.unlink(missing_ok=True)
            except OSError:
                pass


@contextlib.contextmanager
def atomic_open(path: str | Path, mode: str = "wb", **kw: Any) -> Iterator[IO]:
    """Open ``path`` for writing so that it is never left half written.

    A regular file (or a new one) is written to a temporary file beside it, fsynced and renamed to
    ``path`` when the block ends without error: a file under its final name is always whole, and on any
    error (disk full, Ctrl-C, SIGTERM) the temporary file is removed and ``path`` is left as it was. A
    symlink is followed (the file it points to is replaced, the link kept). A device, FIFO or socket is
    written to directly (a FIFO only if a process reads it); a folder is refused. An OSError always names
    ``path``."""
    path = Path(path)
    try:
        if path.is_symlink() and _kind(path) == "special":  # a link to a device, or /dev/stdout to a pipe
            real = Path(os.path.realpath(path))
            path = real if real.exists() else path  # an error names the device, not the link
            with _open_special(path, mode, kw) as fh:
                yield fh
                fh.flush()
            return
        if path.is_symlink():
            try:
                path = path.resolve()
            except RuntimeError:  # pathlib's report of a loop
                raise OSError(errno.ELOOP, "a symlink loop", str(path)) from None
        kind = _kind(path)
        if kind == "folder":
            raise IsADirectoryError(errno.EISDIR, "is a folder", str(path))
        if kind == "special":
            with _open_special(path, mode, kw) as fh:
                yield fh
                fh.flush()
            return
        _stale(path)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        WRITING.add(str(tmp))  # the signal watchdog removes it if it must end the process (simdom.signals)
        try:
            with open(tmp, mode, **kw) as fh:
                yield fh
                fh.flush()
                os.fsync(fh.fileno())
            if kind == "file":
                with contextlib.suppress(OSError):
                    os.chmod(tmp, stat.S_IMODE(os.stat(path).st_mode))  # the old file's permissions
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        finally:
            WRITING.discard(str(tmp))
    except OSError as e:
        if e.errno is None and e.strerror is None:  # a library's error (polars: "... (os error 28)"): its errno
            found = re.search(r"\(os error (\d+)\)", str(e))
            code = int(found[1]) if found else errno.EIO
            e = OSError(code, os.strerror(code) if found else " ".join(str(e).split())[:200] or "write failed")
        if e.filename is None or str(e.filename).endswith(".tmp"):
            e.filename = str(path)  # a write error carries no file name, a temporary file's means nothing
        raise e


@contextlib.contextmanager
def _open_special(path: Path, mode: str, kw: dict[str, Any]) -> Iterator[IO]:
    """A device or FIFO opened for writing without blocking on a FIFO nobody reads."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as e:
        if e.errno == errno.ENXIO:
            raise OSError(errno.ENXIO, "a FIFO or socket that no process reads; allowed: a file, a device, "
                                       "or a FIFO being read", str(path)) from None
        raise
    os.set_blocking(fd, True)
    with os.fdopen(fd, mode, **kw) as fh:
        yield fh


def write_atomic(path: str | Path, data: bytes | str) -> None:
    """Write ``data`` (bytes, or text as UTF-8) to ``path`` whole or not at all (:func:`atomic_open`)."""
    with atomic_open(path, "wb") as fh:
        fh.write(data.encode("utf-8") if isinstance(data, str) else data)
