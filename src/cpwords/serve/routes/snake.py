"""The Wordsnake page, and a solve's life cycle (submit, events, stop, result, drawings).

A solve is a job of the server's :class:`~cpwords.serve.jobs.JobManager`: it runs
:func:`cpwords.solve_wordsnake` in a child process that the page can stop, and streams its
progress to the page as server-sent events. (The module is ``snake``, not ``wordsnake``, so
that its name does not shadow the :mod:`cpwords.wordsnake` wing in short cross-references.)
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import AsyncIterator
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from cpwords.core.errors import CpwordsError, InputError
from cpwords.serve import views
from cpwords.serve.jobs import Job, JobManager, QueueFull
from cpwords.serve.messages import page_error
from cpwords.serve.routes.common import NOT_JSON, Web, read_capped, route
from cpwords.serve.settings import CLI_TIME_LIMIT, DEFAULT_TIME_LIMIT, Settings
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
        request,
        "wordsnake.html",
        title="Wordsnake",
        methods=SNAKE_METHODS,
        max_upload=settings.max_upload,
        max_time_limit=settings.max_time_limit,
        default_time_limit=DEFAULT_TIME_LIMIT,
        cli_time_limit=CLI_TIME_LIMIT,
        max_solves=settings.max_solves,
        demo="\n".join(_demo_words()),
        lexicons=views.dictionary_choices(),
    )


async def snake_submit(web: Web, request: Request) -> Response:
    """Queue a solve (JSON body: the words or a lexicon, method, time limit, rules): 202.

    The body must be ``application/json`` (415 otherwise: a form or text body is what another
    site's page could send without asking); a full queue is 429, with the reason.
    """
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        msg = f"send the solve as application/json, not {kind[:60] or 'no content type'}"
        return JSONResponse({"error": msg}, status_code=415)
    busy = web.jobs.full()  # refused before its list is read and parsed
    if busy is not None:
        return JSONResponse({"error": busy}, status_code=429, headers={"Retry-After": "10"})
    try:
        body = await read_capped(request, web.settings.max_upload)
        spec = _snake_spec(body, web.settings)
    except CpwordsError as exc:
        status = 413 if "upload cap" in str(exc) else 400
        return JSONResponse({"error": page_error(exc)}, status_code=status)
    try:
        job = web.jobs.submit(spec)
    except QueueFull as exc:
        return JSONResponse(
            {"error": page_error(exc)}, status_code=429, headers={"Retry-After": "10"}
        )
    return JSONResponse(
        {"id": job.id, "n": job.n, "position": web.jobs.position(job)},
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


#: The longest ``name`` of a submitted list (characters).
MAX_NAME = 200

#: The keys of a submitted solve and the JSON types each takes (None: null allowed).
SPEC_KEYS: dict[str, tuple[type, ...]] = {
    "words": (str,),
    "lexicon": (str, type(None)),
    "name": (str, type(None)),
    "method": (str,),
    "time_limit": (int, float),
    "cyclic": (bool,),
    "proper": (bool,),
}

_TYPE_NAMES = {
    str: "a string",
    type(None): "null",
    int: "a number",
    float: "a number",
    bool: "true or false",
}


def _parse_request(body: bytes) -> dict[str, Any]:
    """The request's JSON object, each key of :data:`SPEC_KEYS` of its type, or the one line.

    Booleans are JSON's ``true``/``false`` (``"false"`` is refused, not taken as true) and a
    number is not a boolean (``"time_limit": true`` is refused); nesting too deep, numbers
    too long and unknown keys are refused too.
    """
    try:
        data = json.loads(body or b"{}")
    except (ValueError, RecursionError):  # bad JSON or UTF-8, a 5,000-digit number, deep nesting
        raise InputError(NOT_JSON) from None
    if not isinstance(data, dict):
        raise InputError("the request is not a JSON object")
    unknown = sorted(set(data) - set(SPEC_KEYS))
    if unknown:
        raise InputError(f"unknown key {unknown[0][:40]!r}: the keys are {', '.join(SPEC_KEYS)}")
    for key, value in data.items():
        kinds = SPEC_KEYS[key]
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            wanted = " or ".join(dict.fromkeys(_TYPE_NAMES[k] for k in kinds))
            raise InputError(f"{key!r} must be {wanted}, got {type(value).__name__}")
    return data


def _time_limit(data: dict[str, Any], settings: Settings) -> float:
    """The time limit asked for (seconds), a finite number in the server's range."""
    value = data.get("time_limit", DEFAULT_TIME_LIMIT)
    try:
        time_limit = float(value)
    except OverflowError:
        time_limit = math.inf
    if not 0 < time_limit <= settings.max_time_limit:  # NaN and infinity fail too
        shown = f"{time_limit:g}" if math.isfinite(time_limit) else "a number out of range"
        raise InputError(
            f"the time limit must be above 0 and at most {settings.max_time_limit:g} s, got {shown}"
        )
    return time_limit


def _snake_spec(body: bytes, settings: Settings) -> dict[str, Any]:
    """Validate a submitted solve: the CLI's word-list rules and its time-limit rules."""
    from cpwords.core.lexicon import parse_word_lines
    from cpwords.core.sources import lexicon_words

    data = _parse_request(body)
    text = data.get("words", "")
    lexicon = data.get("lexicon") or None
    if lexicon is not None:
        if text.strip():
            raise InputError("give the words or pick a lexicon, not both")
        name = views.check_dictionary(lexicon)
        words: Any = lexicon_words(name)
    else:
        name = data.get("name") or "the list"
        if len(name) > MAX_NAME:  # it names the list in every answer and error
            raise InputError(f"'name' is {len(name):,} characters long: at most {MAX_NAME}")
        words = parse_word_lines(text, name)
    method = data.get("method", "exact")
    if method not in SNAKE_METHODS:
        raise InputError(f"unknown method {method[:40]!r}: choose from {', '.join(SNAKE_METHODS)}")
    return {
        "words": list(words),
        "name": name,
        "cyclic": data.get("cyclic", False),
        "proper": data.get("proper", False),
        "method": method,
        "time_limit": _time_limit(data, settings),
        "workers": 1,
        "seed": 0,
    }


def _snake_row(job: Job) -> dict[str, Any]:
    """The result as ``cpwords snake --json`` prints it: the worker's row
    (:func:`cpwords.wordsnake.modes.wordsnake_row`), less the certificate file it carries."""
    res = dict(job.result or {})
    res.pop("certificate_file", None)  # served on its own (certificate.json)
    return res


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
        "n": row["n"],
        "interrupted": row["interrupted"],
        "total_chars": row["total_chars"],
        "snake_chars": row["snake_chars"],
        "reason": (row.get("solver_info") or {}).get("reason"),
        "certificate": (row.get("solver_info") or {}).get("certificate"),
    }
    if order:
        out["svg"] = snake_svg(order, job.spec["cyclic"], job.spec["proper"])
    return out


def _sse(kind: str, data: dict[str, Any]) -> str:
    """One server-sent event."""
    return f"event: {kind}\ndata: {json.dumps(data)}\n\n"


#: Seconds between two heartbeats of a running solve's event stream.
TICK_EVERY = 1.0


def _tick(job: Job, last: dict[str, Any] | None) -> str:
    """A running solve's heartbeat (event ``tick``): the seconds since its process started,
    and the last progress report ``last`` as it was sent (``stage``, ``incumbent``,
    ``bound``, and ``since``: how many seconds ago; all None before the first report).
    Nothing in it is new but the clock."""
    now = time.monotonic()
    data: dict[str, Any] = {
        "elapsed": now - (job.started if job.started is not None else job.created),
        "since": None,
        "stage": None,
        "incumbent": None,
        "bound": None,
    }
    if last is not None:
        data["since"] = None if job.reported is None else now - job.reported
        data |= {k: last.get(k) for k in ("stage", "incumbent", "bound")}
    return _sse("tick", data)


async def _event_stream(
    request: Request, job: Job, jobs: JobManager, stop_on_close: bool
) -> AsyncIterator[str]:
    """The job's events as server-sent events, with a heartbeat (:func:`_tick`) every second
    while it runs; the page closing stops the solve."""
    index = 0
    last_beat = time.monotonic()
    last: dict[str, Any] | None = None  # the last progress report
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
                if kind == "progress":
                    last = data
                yield _sse(kind, data)
            if time.monotonic() - last_beat >= TICK_EVERY:
                last_beat = time.monotonic()
                yield _tick(job, last) if job.state == "running" else ": keep-alive\n\n"
            if await request.is_disconnected():
                return
            await asyncio.sleep(0.1)
    finally:
        if stop_on_close and not finished and not job.final:
            jobs.stop(job)
