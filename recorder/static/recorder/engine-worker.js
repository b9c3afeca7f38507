/* The rules engine off the page's main thread: Pyodide running the archive's own engine
 * (engine/fives_engine and recorder/table.py, the zip config.engine names) in a dedicated worker,
 * so that a tap paints at once while the engine checks it (recorder.js).
 *
 * Messages in: {init: {pyodide, stdlib, engine, catalogue}} once, then {id, doc}: a record
 * to analyse. Out: {ready: true, ms} or {failed: reason}, then {id, answer} (the engine's
 * answer, recorder.table.analyse_ahead: with its answers to the taps that may come next, so
 * that the page draws the next tap without asking) or {id, error}. The worker's fetches go
 * through the recorder's service worker, which keeps Pyodide and the engine for a table
 * offline.
 *
 * The analysis board (recorder/board.html, analyse.js) asks {id, board: {position, layouts,
 * equity}}: every legal play of a fives/1 position valued over that many layouts, refined
 * while the same position is asked again (fives_engine.position.Board); ``equity`` the
 * address of the match-equity samples its chances read, fetched once into the engine's
 * folder. Out: {id, answer} (the analysis, or {error: {code, message, path}}). */
let analyseJson = null;
let boardJson = null;
let pyodideNow = null;
const equityHad = new Set();

self.onmessage = async (event) => {
  const message = event.data;
  if (message.init) {
    const started = performance.now();
    // Each step's end, in ms from the worker's start (bench/phone_recorder.py prints them).
    const steps = {};
    const mark = (name) => { steps[name] = Math.round(performance.now() - started); };
    try {
      await start(message.init, mark);
      self.postMessage({ ready: true, ms: Math.round(performance.now() - started), steps });
    } catch (e) {
      self.postMessage({ failed: e && e.message ? e.message : String(e) });
    }
    return;
  }
  try {
    if (message.board) {
      const equity = message.board.equity;
      if (equity && !equityHad.has(equity.name)) {
        const text = await (await fetch(equity.url)).text();
        pyodideNow.FS.writeFile("/home/pyodide/fives/fives_engine/equity/" + equity.name + ".json", text);
        equityHad.add(equity.name);
      }
      const asked = JSON.stringify({ position: message.board.position, layouts: message.board.layouts });
      self.postMessage({ id: message.id, answer: JSON.parse(boardJson(asked)) });
      return;
    }
    self.postMessage({ id: message.id, answer: JSON.parse(analyseJson(JSON.stringify(message.doc))) });
  } catch (e) {
    self.postMessage({ id: message.id, error: e && e.message ? e.message : String(e) });
  }
};

async function start(init, mark) {
  const { loadPyodide } = await import(init.pyodide + "pyodide.mjs");
  mark("script");
  const pyodide = await loadPyodide({ indexURL: init.pyodide, stdLibURL: init.stdlib });
  mark("python");
  const zip = await (await fetch(init.engine)).arrayBuffer();
  pyodide.unpackArchive(zip, "zip", { extractDir: "/home/pyodide/fives" });
  mark("unpacked");
  pyodide.globals.set("catalogue_json", JSON.stringify(init.catalogue));
  pyodide.runPython(
    "import sys, json\nsys.path.insert(0, '/home/pyodide/fives')\n" +
    "from recorder.table import analyse_ahead\nCATALOGUE = json.loads(catalogue_json)\n" +
    "def analyse_json(text):\n    return json.dumps(analyse_ahead(json.loads(text), CATALOGUE))\n"
  );
  const call = pyodide.globals.get("analyse_json");
  analyseJson = (text) => call(text);
  pyodide.FS.mkdirTree("/home/pyodide/fives/fives_engine/equity");
  pyodide.runPython(
    "from fives_engine.position import Board\nBOARD = Board()\n" +
    "def board_json(text):\n    asked = json.loads(text)\n" +
    "    return json.dumps(BOARD.answer(asked['position'], asked['layouts']))\n"
  );
  const board = pyodide.globals.get("board_json");
  boardJson = (text) => board(text);
  pyodideNow = pyodide;
}
