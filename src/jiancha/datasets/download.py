"""Fetch public dataset files into the cache: streaming, resumable (HTTP Range on a ``.part`` file), verified
(size and SHA-256 when known) and renamed into place atomically, so a finished path is never corrupt.
"""

from __future__ import annotations

import os
import time
import urllib.parse
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jiancha._util.hashing import file_sha256
from jiancha.datasets.registry import DOWNLOAD_BASE_ENV, DatasetSpec, RemoteFile, dataset_dir, get_dataset
from jiancha.errors import JianchaError

PART_SUFFIX = ".part"
UNPACKED_STAMP = ".unpacked"


class DownloadError(JianchaError):
    """A download failed, or what arrived is not what the registry expects."""


@dataclass(frozen=True)
class DownloadResult:
    path: Path
    size: int
    sha256: str
    resumed: bool = False     # continued a partial download with an HTTP Range request
    skipped: bool = False     # already present and verified


@dataclass(frozen=True)
class DatasetDownload:
    """What ``download_dataset`` did: the folder, each file fetched, optional files missing, manual steps."""

    spec: DatasetSpec
    target: Path
    files: tuple[DownloadResult, ...] = ()
    missing_optional: tuple[str, ...] = ()
    manual_steps: tuple[str, ...] = ()
    unpacked: tuple[Path, ...] = field(default=())


def _matches(path: Path, size: int | None, sha256: str | None) -> bool:
    if size is not None and path.stat().st_size != size:
        return False
    return sha256 is None or file_sha256(path) == sha256


def _content_range_start(value: str | None) -> int | None:
    # "bytes 100-999/1000"
    if not value or not value.startswith("bytes "):
        return None
    try:
        return int(value[6:].split("-", 1)[0])
    except ValueError:
        return None


def download_file(url: str, dest: str | os.PathLike, *, size: int | None = None, sha256: str | None = None,
                  client: Any = None, progress: Any = None, retries: int = 3, backoff: float = 0.5,
                  timeout: float = 30.0) -> DownloadResult:
    """Download ``url`` to ``dest`` through ``dest.part``; resume a partial file; verify; rename atomically.

    ``progress`` is an optional ``rich.progress.Progress``. A dropped connection is retried ``retries`` times,
    each time resuming from the bytes already on disk. A size or checksum mismatch deletes the partial file
    and raises DownloadError; nothing unverified is ever left at ``dest``.
    """
    import httpx

    dest = Path(dest)
    part = dest.with_name(dest.name + PART_SUFFIX)
    if dest.exists() and _matches(dest, size, sha256):
        return DownloadResult(dest, dest.stat().st_size, file_sha256(dest), skipped=True)
    dest.parent.mkdir(parents=True, exist_ok=True)
    own_client = client is None
    if own_client:
        client = httpx.Client(timeout=timeout, follow_redirects=True,
                              headers={"User-Agent": "jiancha-downloader"})
    task = progress.add_task(dest.name, total=size) if progress is not None else None
    resumed = False
    failures = 0
    try:
        while True:
            offset = part.stat().st_size if part.exists() else 0
            if size is not None and offset > size:
                part.unlink()
                offset = 0
            headers = {"Accept-Encoding": "identity"}  # byte ranges of the file itself, never of a re-encoding
            if offset:
                headers["Range"] = f"bytes={offset}-"
            try:
                with client.stream("GET", url, headers=headers) as resp:
                    if resp.status_code == 416 and offset:
                        break  # nothing left to fetch: the partial file is whole (verified below)
                    if resp.status_code == 404:
                        raise DownloadError(f"not found (HTTP 404): {url}")
                    if resp.status_code >= 400:
                        raise DownloadError(f"HTTP {resp.status_code} for {url}; try again later or check "
                                            f"${DOWNLOAD_BASE_ENV} / --base-url")
                    if offset and resp.status_code == 206 and _content_range_start(
                            resp.headers.get("content-range")) == offset:
                        mode, resumed = "ab", True
                    else:
                        mode, offset = "wb", 0  # the server ignored the Range request: start over
                    length = resp.headers.get("content-length")
                    total = offset + int(length) if length and length.isdigit() else size
                    if progress is not None:
                        progress.update(task, total=total, completed=offset)
                    with part.open(mode) as fh:
                        for chunk in resp.iter_raw():  # as received: a dropped connection loses nothing
                            fh.write(chunk)
                            if progress is not None:
                                progress.update(task, advance=len(chunk))
                        fh.flush()
                        os.fsync(fh.fileno())
                break
            except httpx.TransportError as exc:
                failures += 1
                if failures > retries:
                    kept = part.stat().st_size if part.exists() else 0
                    then = (f"{kept} bytes kept in {part}; run the same command again to resume" if kept else
                            f"check the network, or point ${DOWNLOAD_BASE_ENV} / --base-url at a mirror")
                    raise DownloadError(f"download of {url} failed after {failures} attempt(s) "
                                        f"({type(exc).__name__}: {exc}); {then}") from None
                time.sleep(backoff * failures)
    finally:
        if own_client:
            client.close()
        if progress is not None and task is not None:
            progress.remove_task(task)

    got_size = part.stat().st_size
    if size is not None and got_size != size:  # the transfer finished: the server's file is not the expected one
        part.unlink()
        raise DownloadError(f"{url}: size {got_size} bytes, expected {size}; the download was deleted and nothing "
                            f"was written to {dest}. The file may have changed upstream: check the source, or pass "
                            "--no-verify")
    got_sha = file_sha256(part)
    if sha256 is not None and got_sha != sha256:
        part.unlink()
        raise DownloadError(f"{url}: SHA-256 {got_sha}, expected {sha256}; the download was deleted and nothing "
                            "was written to " + str(dest) + ". The file may have changed upstream: check the "
                            "source, or pass --no-verify")
    os.replace(part, dest)
    return DownloadResult(dest, got_size, got_sha, resumed=resumed)


def unpack_zip(archive: Path, into: Path) -> Path:
    """Unpack ``archive`` into ``into`` once (a stamp file records it); refuse members escaping the folder."""
    stamp = into / f"{archive.name}{UNPACKED_STAMP}"
    if stamp.exists():
        return into
    root = into.resolve()
    try:
        with zipfile.ZipFile(archive) as zf:
            for name in zf.namelist():
                target = (into / name).resolve()
                if root != target and root not in target.parents:
                    raise DownloadError(f"{archive}: member {name!r} would be written outside {into}; refusing")
            zf.extractall(into)
    except zipfile.BadZipFile as exc:
        raise DownloadError(f"{archive}: not a valid zip archive ({exc}); delete it and download again") from None
    stamp.write_text("ok\n", encoding="utf-8")
    return into


def hoist_numbered_dirs(folder: Path) -> int:
    """Move ``folder/<wrapper>/<number>/`` up to ``folder/<number>/`` (an archive that wraps its per-query
    folders in one top folder, e.g. ``candidates1/``); returns how many folders moved."""
    moved = 0
    for wrapper in sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.isdigit()):
        numbered = [p for p in wrapper.iterdir() if p.is_dir() and p.name.isdigit()]
        for sub in numbered:
            dest = folder / sub.name
            if not dest.exists():
                sub.rename(dest)
                moved += 1
    return moved


def file_url(spec: DatasetSpec, f: RemoteFile, base_url: str | None = None) -> str:
    """URL of one file: ``<base>/<cache_name>/<path>`` under a mirror base, else the official raw URL."""
    quoted = urllib.parse.quote(f.path)
    base = base_url or os.environ.get(DOWNLOAD_BASE_ENV)
    if base:
        return f"{base.rstrip('/')}/{spec.cache_name}/{quoted}"
    if spec.base_url is None:
        raise DownloadError(f"dataset {spec.id!r} has no download URL")
    return f"{spec.base_url}/{quoted}"


def download_dataset(dataset_id: str, *, to: str | os.PathLike | None = None, cache_dir: str | os.PathLike | None = None,
                     base_url: str | None = None, verify: bool = True, progress: Any = None,
                     client: Any = None, retries: int = 3, backoff: float = 0.5) -> DatasetDownload:
    """Fetch a registered dataset into ``to`` (default ``<cache>/<dataset>``); see the registry for sources."""
    spec = get_dataset(dataset_id)
    target = Path(to).expanduser() if to is not None else dataset_dir(spec, cache_dir)
    manual = (spec.manual_step.format(target=target),) if spec.manual_step else ()
    if spec.hub_id:
        path = download_from_hub(spec.hub_id, target)
        return DatasetDownload(spec, path, manual_steps=manual)
    results: list[DownloadResult] = []
    missing: list[str] = []
    unpacked: list[Path] = []
    for f in spec.files:
        url = file_url(spec, f, base_url)
        try:
            res = download_file(url, target / f.path, size=f.size if verify else None,
                                sha256=f.sha256 if verify else None, client=client, progress=progress,
                                retries=retries, backoff=backoff)
        except DownloadError as exc:
            if f.optional and "HTTP 404" in str(exc):
                missing.append(f.path)
                continue
            raise
        results.append(res)
        if f.unpack:
            unpacked.append(unpack_zip(res.path, res.path.parent))
            hoist_numbered_dirs(res.path.parent)
    return DatasetDownload(spec, target, tuple(results), tuple(missing), manual, tuple(unpacked))


def download_from_hub(hub_id: str, target: Path) -> Path:
    """``huggingface_hub.snapshot_download`` of a dataset repository, after a quick reachability probe."""
    from jiancha.datasets.hub import hub_unreachable_reason

    reason = hub_unreachable_reason(hub_id)
    if reason is not None:
        raise DownloadError(
            f"cannot download '{hub_id}' from the Hugging Face hub: {reason}. On a machine with access run "
            f"`jiancha data download pdp --to DIR` (or `huggingface-cli download --repo-type dataset {hub_id} "
            "--local-dir DIR`), copy DIR here, and pass DIR wherever a PDP source is asked for")
    from huggingface_hub import snapshot_download

    try:
        return Path(snapshot_download(repo_id=hub_id, repo_type="dataset", local_dir=str(target)))
    except Exception as exc:  # noqa: BLE001 - hub client raises many kinds
        raise DownloadError(f"download of '{hub_id}' from the hub failed ({type(exc).__name__}: {exc})") from None
