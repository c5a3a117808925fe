// The Wordsnake page: submit a list, follow the solve's server-sent events, stop it.
// Plain JavaScript, no build step. Closing the page closes the event stream, which the
// server takes as a stop.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const form = $("snake-form");
  const maxUpload = Number(form.dataset.maxUpload);
  let source = null;
  let jobId = null;
  let points = [];

  function showError(msg) {
    $("error").textContent = msg ? "error: " + msg : "";
    $("error").hidden = !msg;
  }
  function fmt(v) {
    return v === null || v === undefined ? "-" : Number(v).toLocaleString("en");
  }
  function gap(inc, bnd) {
    if (inc === null || bnd === null || inc === undefined || bnd === undefined) return "-";
    return (100 * Math.abs(bnd - inc) / Math.max(1, Math.abs(inc))).toFixed(2) + " %";
  }
  // The chart: each series a line through its points and a dot at its last one, so that a
  // solve that ends before its first progress event still shows its final point.
  function draw() {
    const valid = points.filter((p) => p.inc !== null || p.bnd !== null);
    if (!valid.length) return;
    const tMax = Math.max(...valid.map((p) => p.t), 0.001);
    const vals = valid.flatMap((p) => [p.inc, p.bnd]).filter((v) => v !== null);
    const lo = Math.min(...vals), hi = Math.max(...vals);
    const x = (t) => 10 + 460 * t / tMax;
    const y = (v) => 120 - 90 * (hi === lo ? 0.5 : (v - lo) / (hi - lo));
    for (const [key, name] of [["inc", "incumbent"], ["bnd", "bound"]]) {
      const own = valid.filter((p) => p[key] !== null);
      $("line-" + name).setAttribute("points",
        own.map((p) => x(p.t).toFixed(1) + "," + y(p[key]).toFixed(1)).join(" "));
      const dot = $("dot-" + name);
      dot.setAttribute("visibility", own.length ? "visible" : "hidden");
      if (own.length) {
        const last = own[own.length - 1];
        dot.setAttribute("cx", x(last.t).toFixed(1));
        dot.setAttribute("cy", y(last[key]).toFixed(1));
      }
    }
    $("chart-time").textContent = tMax < 10 ? tMax.toFixed(2) + " s" : tMax.toFixed(0) + " s";
    const last = valid[valid.length - 1];
    $("chart-last").textContent = "incumbent " + fmt(last.inc) + ", bound " + fmt(last.bnd);
  }
  // The last reported stage, incumbent and bound (a progress event, or a tick repeating it).
  function known(d) {
    $("stage").textContent = d.stage || "-";
    $("incumbent").textContent = fmt(d.incumbent);
    $("bound").textContent = fmt(d.bound);
    $("gap").textContent = gap(d.incumbent, d.bound);
  }
  function running(on) {
    $("start").disabled = on;
    $("stop").disabled = !on;
  }

  $("demo").addEventListener("click", () => {
    $("words").value = $("demo-words").textContent.trim() + "\n";
    $("lexicon").value = "";
    $("words").disabled = false;
  });
  $("lexicon").addEventListener("change", () => {
    $("words").disabled = Boolean($("lexicon").value);
  });
  $("upload").addEventListener("change", () => {
    const file = $("upload").files[0];
    if (!file) return;
    if (file.size > maxUpload) {
      showError(file.name + " is larger than the " + (maxUpload / 1024).toLocaleString("en") + " KiB upload cap");
      return;
    }
    file.text().then((text) => { $("words").value = text; showError(""); });
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError("");
    $("result").hidden = true;
    points = [];
    ["line-incumbent", "line-bound"].forEach((k) => $(k).setAttribute("points", ""));
    ["dot-incumbent", "dot-bound"].forEach((k) => $(k).setAttribute("visibility", "hidden"));
    $("chart-time").textContent = "";
    $("chart-last").textContent = "";
    const lexicon = $("lexicon").value;
    const body = JSON.stringify({
      words: lexicon ? "" : $("words").value, lexicon: lexicon || null, method: $("method").value,
      time_limit: Number($("time-limit").value), cyclic: $("cyclic").checked,
      proper: $("proper").checked,
    });
    if (body.length > maxUpload) {
      showError("the list is larger than the " + (maxUpload / 1024).toLocaleString("en") + " KiB upload cap");
      return;
    }
    let reply;
    try {
      const resp = await fetch("/api/wordsnake/jobs", {
        method: "POST", headers: {"Content-Type": "application/json"}, body: body,
      });
      reply = await resp.json();
      if (!resp.ok) { showError(reply.error || resp.statusText); return; }
    } catch (err) {
      showError(String(err));
      return;
    }
    jobId = reply.id;
    $("progress").hidden = false;
    ["stage", "elapsed", "reported", "incumbent", "bound", "gap"].forEach((k) => { $(k).textContent = "-"; });
    $("state").textContent = "starting (" + reply.n.toLocaleString("en") + " words)";
    running(true);
    follow(jobId);
  });

  $("stop").addEventListener("click", async () => {
    if (!jobId) return;
    $("state").textContent = "stopping";
    $("stop").disabled = true;
    await fetch("/api/wordsnake/jobs/" + jobId + "/stop", {method: "POST"});
  });

  function follow(id) {
    source = new EventSource("/api/wordsnake/jobs/" + id + "/events");
    source.addEventListener("queued", (e) => {
      const d = JSON.parse(e.data);
      $("state").textContent = "waiting: place " + d.position + " in the queue";
    });
    source.addEventListener("started", () => {
      $("state").textContent = "running";
      $("elapsed").textContent = "0 s";
      $("reported").textContent = "none yet";
    });
    source.addEventListener("progress", (e) => {
      const d = JSON.parse(e.data);
      $("state").textContent = "running";
      $("reported").textContent = "now (at " + d.elapsed.toFixed(1) + " s of the solve)";
      known(d);
      points.push({t: d.elapsed, inc: d.incumbent, bnd: d.bound});
      draw();
    });
    // The server's heartbeat, each second of a running solve: its clock, and the last report
    // again as it was sent (nothing before the first report).
    source.addEventListener("tick", (e) => {
      const d = JSON.parse(e.data);
      $("state").textContent = "running";
      $("elapsed").textContent = d.elapsed.toFixed(0) + " s";
      if (d.since === null) {
        $("reported").textContent = "none yet";
        return;
      }
      $("reported").textContent = d.since.toFixed(0) + " s ago";
      known(d);
    });
    source.addEventListener("done", (e) => {
      source.close();
      source = null;
      running(false);
      finish(id, JSON.parse(e.data));
    });
    source.onerror = () => {
      if (source && source.readyState === EventSource.CLOSED) {
        running(false);
        showError("lost the connection to the server");
      }
    };
  }

  function finish(id, d) {
    $("state").textContent = d.state;
    $("links").hidden = true;
    $("snake").innerHTML = "";
    if (d.error) { showError(d.error); return; }
    if (d.objective === undefined || d.objective === null) {
      $("summary").textContent = d.reason || "stopped before any ordering was found";
      $("result").hidden = false;
      return;
    }
    $("stage").textContent = "finished";
    if (d.wall_time !== undefined && d.wall_time !== null) $("elapsed").textContent = d.wall_time.toFixed(2) + " s";
    $("reported").textContent = "the final answer";
    if (d.wall_time !== undefined && d.wall_time !== null) {
      // The final point, never before the last progress event (which counts from the start).
      const after = points.length ? points[points.length - 1].t : 0;
      points.push({t: Math.max(d.wall_time, after), inc: d.objective, bnd: d.bound});
      draw();
    }
    $("incumbent").textContent = fmt(d.objective);
    $("bound").textContent = fmt(d.bound);
    $("gap").textContent = gap(d.objective, d.bound);
    let text = d.status + ": score " + fmt(d.objective) + ", bound " + fmt(d.bound) +
      " (" + d.n.toLocaleString("en") + " words, " + d.wall_time.toFixed(2) + " s, " + d.method +
      (d.verified ? ", verified" : "") + ")";
    if (d.interrupted) text += ": stopped, best ordering so far";
    $("summary").textContent = text;
    $("download").href = "/api/wordsnake/jobs/" + id + "/result.json";
    $("svg-link").href = "/api/wordsnake/jobs/" + id + "/snake.svg";
    const cert = d.certificate;
    $("cert-item").hidden = !cert;
    if (cert) $("cert-link").href = "/api/wordsnake/jobs/" + id + "/certificate.json";
    $("snake").innerHTML = d.svg || "";
    $("links").hidden = false;
    $("result").hidden = false;
  }
})();
