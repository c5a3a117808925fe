"""The Wordsnake page, and a solve's life cycle (submit, events, stop, result, drawings).

A solve is a job of the server's :class:`~cpwords.serve.jobs.JobManager`: it runs
:func:`cpwords.solve_wordsnake` in a child process that the page can stop, and streams its
progress to the page as server-sent events. (The module is ``snake``, not ``wordsnake``, so
that its name does not shadow the :mod:`cpwords.wordsnake` wing in short cross-references.)
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from cpwords.core.errors import CpwordsError, InputError
from cpwords.serve import views
from cpwords.serve.jobs import Job, JobManager
from cpwords.serve.routes.common import Web, route
from cpwords.serve.settings import DEFAULT_TIME_LIMIT, Settings
from cpwords.wordsnake.draw import snake_svg

#: Wordsnake methods offered on the page (the outside peers are left to the CLI).
SNAKE_METHODS = ("exact", "mip", "cpsat", "cpsat-routes", "layered", "local", "greedy")


def routes(web: Web) -> list[Route]:
    """The Wordsnake page and its solves' API."""
    jobs = "/api/wordsnake/jobs"
    return [
        route("/wordsnake", wordsnake, web),
        route(jobs, snake_submit, web, methods=["POST"]),
        route(jobs + "/{job_id}/events", snake_events, web),
        route(jobs + "/{job_id}/stop", snake_stop, web, methods=["POST"]),
        route(jobs + "/{job_id}/result.json", snake_result, web),
        route(jobs + "/{job_id}/certificate.json", snake_certificate, web),
        route(jobs + "/{job_id}/snake.svg", snake_svg_file, web),
    ]


async def wordsnake(web: Web, request: Request) -> Response:
    """The page: the form, with the demo list and the server's limits."""
    settings = web.settings
    return web.page(
        request, "wordsnake.html", title="Wordsnake", methods=SNAKE_METHODS,
        max_upload=settings.max_upload, max_time_limit=settings.max_time_limit,
        default_time_limit=DEFAULT_TIME_LIMIT, demo="\n".join(_demo_words()),
        lexicons=views.dictionary_choices(),
    )  # fmt: skip


async def snake_submit(web: Web, request: Request) -> Response:
    """Queue a solve (JSON body: the words or a lexicon, method, time limit, rules): 202."""
    try:
        body = await _read_capped(request, web.settings.max_upload)
        spec = _snake_spec(body, web.settings)
    except CpwordsError as exc:
        status = 413 if "upload cap" in str(exc) else 400
        return JSONResponse({"error": str(exc)}, status_code=status)
    job = web.jobs.submit(spec)
    return JSONResponse(
        {"id": job.id, "n": len(spec["words"]), "position": web.jobs.position(job)},
        status_code=202,
    )


async def snake_events(web: Web, request: Request) -> Response:
    """The solve's progress as server-sent events; the stream closing stops the solve."""
    job = _job(web, request)
    follow = request.query_params.get("follow") != "1"  # follow=1: watching, not owning
    return StreamingResponse(
        _event_stream(request, job, web.jobs, stop_on_close=follow),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


async def snake_stop(web: Web, request: Request) -> Response:
    """Stop the solve (its best answer so far is kept)."""
    job = _job(web, request)
    web.jobs.stop(job)
    return JSONResponse({"id": job.id, "state": job.state})


async def snake_result(web: Web, request: Request) -> Response:
    """The result as ``cpwords snake --json`` writes it (a download), or 409 before it."""
    job = _job(web, request)
    if job.result is None:
        return JSONResponse({"error": f"no result yet (state {job.state})"}, status_code=409)
    body = json.dumps(_snake_row(job), indent=1)
    return Response(
        body,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="wordsnake-{job.id}.json"'},
    )


async def snake_certificate(web: Web, request: Request) -> Response:
    """The solve's optimality certificate (a download), or 404 when it wrote none."""
    job = _job(web, request)
    cert = (job.result or {}).get("certificate_file")
    if cert is None:
        raise HTTPException(404, "this solve wrote no certificate (the default method does)")
    return Response(
        json.dumps(cert, separators=(",", ":")),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="wordsnake-{job.id}.cert.json"'},
    )


async def snake_svg_file(web: Web, request: Request) -> Response:
    """The ordering drawn as SVG, or 409 when there is none."""
    job = _job(web, request)
    if job.result is None or job.result.get("solution") is None:
        return JSONResponse({"error": "no ordering to draw"}, status_code=409)
    svg = snake_svg(job.result["solution"], job.spec["cyclic"], job.spec["proper"])
    return Response(svg, media_type="image/svg+xml")


def _job(web: Web, request: Request) -> Job:
    """The job named in the path, or a 404."""
    job = web.jobs.get(request.path_params["job_id"])
    if job is None:
        raise HTTPException(404, "no such solve (finished solves are kept for a while)")
    return job


def _demo_words() -> list[str]:
    """The built-in demo instance's words (the page's example list)."""
    from cpwords.wordsnake.spec import builtin_instance

    return list(builtin_instance().words)


async def _read_capped(request: Request, cap: int) -> bytes:
    """The request body, refused (the one-line error) past ``cap`` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > cap:
        raise InputError(f"the list is larger than the {cap // 1024:,} KiB upload cap")
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > cap:
            raise InputError(f"the list is larger than the {cap // 1024:,} KiB upload cap")
        chunks.append(chunk)
    return b"".join(chunks)


def _snake_spec(body: bytes, settings: Settings) -> dict[str, Any]:
    """Validate a submitted solve: the CLI's word-list rules and its time-limit rules."""
    from cpwords.core.lexicon import parse_word_lines
    from cpwords.core.sources import lexicon_words

    try:
        data = json.loads(body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise InputError("the request is not JSON") from None
    if not isinstance(data, dict):
        raise InputError("the request is not a JSON object")
    text = data.get("words", "")
    if not isinstance(text, str):
        raise InputError("'words' must be the text of the list, one word a line")
    lexicon = data.get("lexicon") or None
    if lexicon is not None:
        if text.strip():
            raise InputError("give the words or pick a lexicon, not both")
        name = views.check_dictionary(str(lexicon))
        words: Any = lexicon_words(name)
    else:
        name = str(data.get("name") or "the list")
        words = parse_word_lines(text, name)
    method = str(data.get("method", "exact"))
    if method not in SNAKE_METHODS:
        raise InputError(f"unknown method {method!r}: choose from {', '.join(SNAKE_METHODS)}")
    try:
        time_limit = float(data.get("time_limit", DEFAULT_TIME_LIMIT))
    except (TypeError, ValueError):
        raise InputError("the time limit must be a number of seconds") from None
    if not 0 < time_limit <= settings.max_time_limit:
        raise InputError(
            f"the time limit must be above 0 and at most {settings.max_time_limit:g} s, "
            f"got {time_limit:g}"
        )
    return {
        "words": list(words), "name": name, "cyclic": bool(data.get("cyclic")),
        "proper": bool(data.get("proper")), "method": method, "time_limit": time_limit,
        "workers": 1, "seed": 0,
    }  # fmt: skip


def _snake_row(job: Job) -> dict[str, Any]:
    """The result as ``cpwords snake --json`` shapes it (the result's row plus the instance)."""
    from cpwords.wordsnake.rules import snake_lengths

    res = dict(job.result or {})
    res.pop("certificate_file", None)  # served on its own (certificate.json)
    order = res.get("solution")
    total, merged = (
        snake_lengths(order, job.spec["cyclic"], job.spec["proper"]) if order else (None, None)
    )
    info = res.get("solver_info") or {}
    return {
        **res,
        "interrupted": bool(info.get("interrupted")) or job.stop_requested,
        "n": len(job.spec["words"]),
        "cyclic": job.spec["cyclic"],
        "proper": job.spec["proper"],
        "total_chars": total,
        "snake_chars": merged,
        "instance": job.spec["name"],
    }


def _done_payload(job: Job) -> dict[str, Any]:
    """The ``done`` event: the final state and, with a result, its figures and drawing."""
    out: dict[str, Any] = {"state": job.state, "error": job.error}
    if job.result is None:
        return out
    row = _snake_row(job)
    order = row.get("solution")
    out |= {
        k: row.get(k)
        for k in ("status", "objective", "bound", "gap", "wall_time", "method", "verified")
    }
    out |= {
        "n": row["n"], "interrupted": row["interrupted"], "total_chars": row["total_chars"],
        "snake_chars": row["snake_chars"], "reason": (row.get("solver_info") or {}).get("reason"),
        "certificate": (row.get("solver_info") or {}).get("certificate"),
    }  # fmt: skip
    if order:
        out["svg"] = snake_svg(order, job.spec["cyclic"], job.spec["proper"])
    return out


def _sse(kind: str, data: dict[str, Any]) -> str:
    """One server-sent event."""
    return f"event: {kind}\ndata: {json.dumps(data)}\n\n"


async def _event_stream(
    request: Request, job: Job, jobs: JobManager, stop_on_close: bool
) -> AsyncIterator[str]:
    """The job's events as server-sent events; the page closing stops the solve."""
    index = 0
    last_beat = time.monotonic()
    finished = False
    try:
        while True:
            for kind, data in job.since(index):
                index += 1
                if kind == "done":
                    yield _sse("done", _done_payload(job))
                    finished = True
                    return
                if kind == "queued":
                    data = {"position": jobs.position(job)}
                    if data["position"] is None:
                        continue
                yield _sse(kind, data)
            if time.monotonic() - last_beat > 1.0:
                last_beat = time.monotonic()
                yield ": keep-alive\n\n"
            if await request.is_disconnected():
                return
            await asyncio.sleep(0.1)
    finally:
        if stop_on_close and not finished and not job.final:
            jobs.stop(job)
