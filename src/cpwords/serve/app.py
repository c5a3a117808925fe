"""The web application: Starlette routes over the public API, pages from Jinja2 templates.

Every answer comes from the same calls a Python user makes (``cpwords.solve_letterboxed``,
``cpwords.generate_boxes``, ``cpwords.solve_wordsnake`` in a child process) and every drawing
from the wings' renderers (:mod:`cpwords.letterboxed.draw`, :mod:`cpwords.wordsnake.draw`).
An error cpwords raises on purpose is shown as the CLI's one line (``error: ...``); anything
else is a plain "internal error" page, never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

import cpwords
from cpwords.core.errors import CpwordsError, InputError
from cpwords.letterboxed.draw import box_svg
from cpwords.letterboxed.models.design import DIFFICULTY_BANDS
from cpwords.serve import views
from cpwords.serve.jobs import Job, JobManager
from cpwords.wordsnake.draw import snake_svg

#: Largest word list accepted by the Wordsnake page (bytes of the request body).
MAX_UPLOAD = 4 * 1024 * 1024

#: Longest time limit a page may ask for (seconds); the CLI's default is the page's default.
MAX_TIME_LIMIT = 600.0
DEFAULT_TIME_LIMIT = 60.0

#: Wordsnake methods offered on the page (the outside peers are left to the CLI).
SNAKE_METHODS = ("exact", "mip", "cpsat", "cpsat-routes", "layered", "local", "greedy")

_HERE = resources.files("cpwords.serve")


@dataclass
class Settings:
    """What one server was started with."""

    max_solves: int = 2
    max_upload: int = MAX_UPLOAD
    max_time_limit: float = MAX_TIME_LIMIT
    grace: float = 1.5
    extra: dict[str, Any] = field(default_factory=dict)


class _LetterBoxed:
    """The default Letter Boxed lexicon, indexed once on first use (thread-safe)."""

    def __init__(self) -> None:
        self._solver: Any = None
        self._lock = threading.Lock()

    def solver(self) -> Any:
        with self._lock:
            if self._solver is None:
                self._solver = cpwords.LetterBoxedSolver()
            return self._solver


def create_app(settings: Settings | None = None) -> Starlette:
    """The cpwords web application.

    Parameters
    ----------
    settings : Settings, optional
        Limits (concurrent solves, upload size, time limit, stop grace).

    Returns
    -------
    starlette.applications.Starlette
        An ASGI application; ``app.state.jobs`` is its :class:`~cpwords.serve.jobs.JobManager`.
    """
    settings = settings or Settings()
    templates = Jinja2Templates(directory=str(_HERE / "templates"))
    templates.env.globals["version"] = cpwords.__version__
    jobs = JobManager(max_running=settings.max_solves, grace=settings.grace)
    lb = _LetterBoxed()
    lexicons = views.Lexicons()
    # The pages' own solves (a Letterpress move, a grid fill or design: up to 20 s each) run
    # at most max_solves at once; the rest wait their turn.
    busy = asyncio.Semaphore(settings.max_solves)

    def lb_solver(name: str) -> Any:
        if name == LB_DEFAULT_DICT:
            return lb.solver()
        return lexicons.get("letterboxed", name, cpwords.LetterBoxedSolver)

    def page(request: Request, name: str, code: int = 200, **context: Any) -> Response:
        return templates.TemplateResponse(request, name, context, status_code=code)

    async def index(request: Request) -> Response:
        return page(request, "index.html", title="cpwords")

    async def letterboxed(request: Request) -> Response:
        q = request.query_params
        text = q.get("box", "").strip()
        ctx: dict[str, Any] = _lb_context(q) | {"box_text": text}
        if not text:
            return page(request, "letterboxed.html", **ctx)
        try:
            solver = await run_in_threadpool(lb_solver, views.check_dictionary(ctx["dict"]))
            ctx |= await run_in_threadpool(_letterboxed_view, solver, text, q)
        except CpwordsError as exc:
            return page(request, "letterboxed.html", code=400, error=str(exc), **ctx)
        return page(request, "letterboxed.html", **ctx)

    async def letterboxed_generate(request: Request) -> Response:
        q = request.query_params
        ctx: dict[str, Any] = _lb_context(q) | {"box_text": ""}
        try:
            seed = _int(q.get("seed") or str(int(time.time()) % 100_000), "seed", 0)
            min_playable = _int(q.get("min_playable") or "0", "min_playable", 0)
            unique = q.get("unique") in ("1", "on", "true")
            level = q.get("difficulty") or "any"
            if level not in DIFFICULTIES:
                raise InputError(
                    f"unknown difficulty {level!r}: choose from {', '.join(DIFFICULTIES)}"
                )
            solver = await run_in_threadpool(lb_solver, views.check_dictionary(ctx["dict"]))
            async with busy:
                found = await run_in_threadpool(
                    _generate_box,
                    solver,
                    seed,
                    unique,
                    min_playable,
                    None if level == "any" else level,
                )
        except CpwordsError as exc:
            return page(request, "letterboxed.html", code=400, error=str(exc), **ctx)
        if isinstance(found, str):
            return page(request, "letterboxed.html", code=200, error=found, **ctx)
        box, used, score = found
        url = f"/letterboxed?box={box}&generated={used}&difficulty={score}&dict={ctx['dict']}"
        return RedirectResponse(url, status_code=303)

    async def api_letterboxed(request: Request) -> Response:
        text = request.query_params.get("box", "")
        name = request.query_params.get("dict") or LB_DEFAULT_DICT
        try:
            solver = await run_in_threadpool(lb_solver, views.check_dictionary(name))
            view = await run_in_threadpool(_letterboxed_view, solver, text, {})
        except CpwordsError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        keys = ("box", "status", "solution", "words", "letters", "optimal", "counts", "svg")
        return JSONResponse({k: view[k] for k in keys})

    async def heavy_page(request: Request, name: str, title: str, view: Any) -> Response:
        q = request.query_params
        ctx: dict[str, Any] = {"title": title, "q": q, "dicts": views.dictionary_choices()}
        if not q:
            ctx |= await run_in_threadpool(view, {}) if name == "grid.html" else {}
            return page(request, name, **ctx)
        try:
            async with busy:
                ctx |= await run_in_threadpool(view, q)
        except CpwordsError as exc:
            if name == "grid.html":  # the form keeps what was typed
                ctx |= views.grid_form(q)
            return page(request, name, code=400, error=str(exc), **ctx)
        return page(request, name, **ctx)

    async def letterpress(request: Request) -> Response:
        def view(q: Any) -> dict[str, Any]:
            return views.letterpress_view(lexicons, q)

        return await heavy_page(request, "letterpress.html", "Letterpress", view)

    async def truncate(request: Request) -> Response:
        def view(q: Any) -> dict[str, Any]:
            return views.truncate_view(lexicons, q)

        return await heavy_page(request, "truncate.html", "Truncate", view)

    async def grid(request: Request) -> Response:
        return await heavy_page(request, "grid.html", "Grid", views.grid_view)

    async def api_page(request: Request, view: Any) -> Response:
        """A page's answer as JSON (the same view; its drawings as SVG text)."""
        try:
            async with busy:
                ctx = await run_in_threadpool(view, request.query_params)
        except CpwordsError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        return JSONResponse(views.as_json(ctx))

    async def api_letterpress(request: Request) -> Response:
        return await api_page(request, lambda q: views.letterpress_view(lexicons, q))

    async def api_truncate(request: Request) -> Response:
        return await api_page(request, lambda q: views.truncate_view(lexicons, q))

    async def api_grid(request: Request) -> Response:
        return await api_page(request, views.grid_view)

    async def wordsnake(request: Request) -> Response:
        return page(
            request, "wordsnake.html", title="Wordsnake", methods=SNAKE_METHODS,
            max_upload=settings.max_upload, max_time_limit=settings.max_time_limit,
            default_time_limit=DEFAULT_TIME_LIMIT, demo="\n".join(_demo_words()),
            lexicons=views.dictionary_choices(),
        )  # fmt: skip

    async def snake_submit(request: Request) -> Response:
        try:
            body = await _read_capped(request, settings.max_upload)
            spec = _snake_spec(body, settings)
        except CpwordsError as exc:
            status = 413 if "upload cap" in str(exc) else 400
            return JSONResponse({"error": str(exc)}, status_code=status)
        job = jobs.submit(spec)
        return JSONResponse(
            {"id": job.id, "n": len(spec["words"]), "position": jobs.position(job)},
            status_code=202,
        )

    def _job(request: Request) -> Job:
        job = jobs.get(request.path_params["job_id"])
        if job is None:
            raise HTTPException(404, "no such solve (finished solves are kept for a while)")
        return job

    async def snake_events(request: Request) -> Response:
        job = _job(request)
        follow = request.query_params.get("follow") != "1"  # follow=1: watching, not owning
        return StreamingResponse(
            _event_stream(request, job, jobs, stop_on_close=follow),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    async def snake_stop(request: Request) -> Response:
        job = _job(request)
        jobs.stop(job)
        return JSONResponse({"id": job.id, "state": job.state})

    async def snake_result(request: Request) -> Response:
        job = _job(request)
        if job.result is None:
            return JSONResponse({"error": f"no result yet (state {job.state})"}, status_code=409)
        body = json.dumps(_snake_row(job), indent=1)
        return Response(
            body,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="wordsnake-{job.id}.json"'},
        )

    async def snake_certificate(request: Request) -> Response:
        job = _job(request)
        cert = (job.result or {}).get("certificate_file")
        if cert is None:
            raise HTTPException(404, "this solve wrote no certificate (the default method does)")
        return Response(
            json.dumps(cert, separators=(",", ":")),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="wordsnake-{job.id}.cert.json"'},
        )

    async def snake_svg_file(request: Request) -> Response:
        job = _job(request)
        if job.result is None or job.result.get("solution") is None:
            return JSONResponse({"error": "no ordering to draw"}, status_code=409)
        svg = snake_svg(job.result["solution"], job.spec["cyclic"], job.spec["proper"])
        return Response(svg, media_type="image/svg+xml")

    async def status(request: Request) -> Response:
        return JSONResponse({"running": jobs.running(), "max_solves": settings.max_solves})

    async def not_found(request: Request, exc: Exception) -> Response:
        code = getattr(exc, "status_code", 404)
        detail = getattr(exc, "detail", "not found")
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": detail}, status_code=code)
        return page(request, "error.html", code=code, title="cpwords", error=detail)

    async def server_error(request: Request, exc: Exception) -> Response:
        msg = "internal error (a bug in cpwords: the server log has the details)"
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": msg}, status_code=500)
        return page(request, "error.html", code=500, title="cpwords", error=msg)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await run_in_threadpool(jobs.shutdown)  # no solve outlives the server

    routes = [
        Route("/", index),
        Route("/letterboxed", letterboxed),
        Route("/letterboxed/generate", letterboxed_generate),
        Route("/api/letterboxed", api_letterboxed),
        Route("/letterpress", letterpress),
        Route("/truncate", truncate),
        Route("/grid", grid),
        Route("/api/letterpress", api_letterpress),
        Route("/api/truncate", api_truncate),
        Route("/api/grid", api_grid),
        Route("/wordsnake", wordsnake),
        Route("/api/wordsnake/jobs", snake_submit, methods=["POST"]),
        Route("/api/wordsnake/jobs/{job_id}/events", snake_events),
        Route("/api/wordsnake/jobs/{job_id}/stop", snake_stop, methods=["POST"]),
        Route("/api/wordsnake/jobs/{job_id}/result.json", snake_result),
        Route("/api/wordsnake/jobs/{job_id}/certificate.json", snake_certificate),
        Route("/api/wordsnake/jobs/{job_id}/snake.svg", snake_svg_file),
        Route("/api/status", status),
        Mount("/static", StaticFiles(directory=str(_HERE / "static")), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={HTTPException: not_found, 500: server_error},
        lifespan=lifespan,
    )
    app.state.jobs = jobs
    app.state.settings = settings
    return app


# ---- Letter Boxed -----------------------------------------------------------------------------

#: The Letter Boxed page's default dictionary (the CLI's: wordfreq's 100,000 words).
LB_DEFAULT_DICT = "wordfreq:100000"

#: The difficulty choices of the page: the API's bands, or any.
DIFFICULTIES: tuple[str, ...] = ("any", *DIFFICULTY_BANDS)


def _lb_context(q: Any) -> dict[str, Any]:
    return {
        "title": "Letter Boxed", "dict": q.get("dict") or LB_DEFAULT_DICT,
        "dicts": views.dictionary_choices(), "difficulties": list(DIFFICULTIES),
        "difficulty": q.get("difficulty") if q.get("difficulty") in DIFFICULTIES else "any",
    }  # fmt: skip


def _generate_box(
    solver: Any, seed: int, unique: bool, min_playable: int, difficulty: str | None
) -> tuple[str, int, float] | str:
    """A generated box of the difficulty (box, the seed, its score), or why there is none.

    One :func:`cpwords.generate_boxes` call with the difficulty band (the CLI's
    ``--generate 1 --difficulty``), for at most 20 s.
    """
    from cpwords.core.blocklist import load_blocklist

    gen = cpwords.generate_boxes(
        1, solver, seed=seed, unique=unique, min_playable=min_playable, max_draws=20_000,
        time_limit=20.0, blocklist=load_blocklist(None, enabled=True), difficulty=difficulty,
    )  # fmt: skip
    if gen.boxes:
        b = gen.boxes[0]
        return str(b.box), seed, b.difficulty.score
    return (
        f"no box met the demands within the 20 s limit ({gen.draws:,} drawn from seed {seed}): "
        "relax them or retry"
    )


def _int(text: str, name: str, low: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise InputError(f"{name} must be a whole number, got {text!r}") from None
    if value < low:
        raise InputError(f"{name} must be at least {low}, got {value}")
    return value


def _letterboxed_view(solver: Any, text: str, q: Any) -> dict[str, Any]:
    """Solve and draw one box: everything the page and the JSON API show."""
    from cpwords.letterboxed.rules import parse_box

    if not text.strip():
        raise InputError("give the box, like abc-def-ghi-jkl or abc def ghi jkl")
    parsed = parse_box(text)
    res = cpwords.solve_letterboxed(parsed, solver, all_solutions=True)
    optimal = [list(s) for s in res.solver_info.get("optimal_solutions", [])]
    pick = _int(q.get("pick", "0") or "0", "pick", 0) if q else 0
    if optimal and pick >= len(optimal):
        raise InputError(f"pick must be below {len(optimal)}, got {pick}")
    chain = optimal[pick] if optimal else list(res.solution or [])
    hint = bool(q) and q.get("hint") in ("1", "on", "true")
    reveal = _int(q.get("reveal", "0") or "0", "reveal", 0) if hint else None
    if reveal is not None:
        reveal = min(reveal, len(chain))
    words = res.solver_info.get("words")
    # Counts up to 2 words cost a few ms; 3-word counts (boxes whose optimum is 3 words) take
    # 0.1-0.2 s, so they are asked for with count=3 (a link on the page).
    count_to = _int(q.get("count", "2") or "2", "count", 1) if q else 2
    if count_to > 3:
        raise InputError(f"count must be at most 3, got {count_to}")
    counts = None
    if words:
        c = solver.count(parsed, max_words=min(int(words), count_to))
        counts = {str(j + 1): n for j, n in enumerate(c.by_words)}
    nxt = None
    if reveal is not None and reveal < len(chain):
        w = chain[reveal]
        nxt = {"length": len(w), "first": w[0].upper()}
    return {
        "box": str(parsed),
        "sides": [s.upper() for s in parsed.sides],
        "status": res.status.value,
        "proven": res.status is cpwords.Status.OPTIMAL,
        "solution": chain,
        "words": words,
        "letters": res.solver_info.get("letters"),
        "optimal": optimal,
        "n_optimal": len(optimal),
        "pick": pick,
        "counts": counts,
        "count_more": words is not None and int(words) > count_to,
        "playable": res.solver_info.get("playable_words"),
        "lexicon": solver.source,
        "wall_time": res.wall_time,
        "hint": hint,
        "reveal": reveal,
        "next": nxt,
        "svg": box_svg(parsed, chain, reveal=reveal),
        "reason": res.solver_info.get("reason"),
    }


# ---- Wordsnake --------------------------------------------------------------------------------


def _demo_words() -> list[str]:
    from cpwords.wordsnake.spec import builtin_instance

    return list(builtin_instance().words)


async def _read_capped(request: Request, cap: int) -> bytes:
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
