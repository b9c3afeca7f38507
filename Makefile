# Everything a newcomer or CI needs: `make run` (the archive with demo data) and `make test`.
VENV ?= .venv
BIN := $(VENV)/bin
PYTHON ?= $(shell scripts/find-python)

.PHONY: venv engine run test lint bench browser proxy clean fuzz crawl docs

$(BIN)/.installed: pyproject.toml engine/pyproject.toml clients/python/pyproject.toml
	@test -n "$(PYTHON)" || { scripts/find-python; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	# The engine from its own folder (engine/), the `fives` command line (clients/python/),
	# then the archive that depends on it.
	$(BIN)/python -m pip install --quiet -e ./engine -e ./clients/python -e '.[test]'
	touch $@

venv: $(BIN)/.installed node_modules/.package-lock.json build/pyodide.source.sha256 engine

# The engine's walk compiled with mypyc from the same source, where there is a C compiler
# (else it stays pure Python, and says so); built again whenever the engine's source changes.
engine: $(BIN)/.installed
	$(BIN)/python scripts/build_engine.py

# Pyodide for the recorder (package.json, package-lock.json), served as static files.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

# The recorder's Pyodide, under a directory named by its content, with a standard library
# of the modules Pyodide and the engine import alone (traced, then checked, in node).
build/pyodide.source.sha256: $(BIN)/.installed node_modules/.package-lock.json \
		scripts/build_pyodide.py recorder/table.py $(wildcard engine/fives_engine/*.py)
	$(BIN)/python scripts/build_pyodide.py
	touch $@

# The archive on this machine: SQLite, tasks in-process, demo data on first run.
run: venv
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py demo
	DEBUG=1 $(BIN)/python manage.py runserver --noreload 127.0.0.1:8000

# The suite in TEST_WORKERS processes (pytest-xdist), a test file to each at a time: its
# browser waits, servers and subprocesses leave a core idle, which the other process uses.
# Files are handed out in the order collected (--no-loadscope-reorder): tests/conftest.py
# puts the few files of one long test first, then the rest by how many tests each holds, as
# xdist would. (Handing out every long file first was tried: the two workers then ran the
# servers and browsers of both at once, and the pass took 31:30 against 26:44.)
TEST_WORKERS ?= 2

test: venv
	$(BIN)/ruff check .
	$(BIN)/mypy  # engine/fives_engine, strict ([tool.mypy] in pyproject.toml)
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder -m "not serial"
	# Then two single processes at once, each on a core of its own: the serial tests, and the
	# engine's tests again on the compiled engine, when the machine built one (and the
	# recorder's zip, which must send the compiled modules' source to the phone, and the
	# ratings' arithmetic, held to openskill's). The second runs as one xdist worker, so
	# that its test database is not the serial tests' own.
	log=$$(mktemp); $(BIN)/python -m pytest -m serial > $$log 2>&1 & serial=$$!; status=0; \
	if $(BIN)/python scripts/build_engine.py --check; then \
	  FIVES_ENGINE=compiled $(BIN)/python -m pytest -q -p no:cacheprovider -n 1 \
	    tests/engine tests/archive/test_codec.py tests/recorder/test_recorder_engine.py \
	    tests/replays/test_plackett_luce.py \
	    || status=1; fi; \
	wait $$serial || status=1; cat $$log; rm -f $$log; exit $$status

# The documentation site (mkdocs.yml) into site/, strict: a warning fails it. `make test` builds
# it too, and checks its links and pictures (tests/docs/test_site.py).
docs: $(BIN)/.installed
	NO_MKDOCS_2_WARNING=1 $(BIN)/python -m mkdocs build --strict --site-dir site

# Every Hypothesis and schemathesis test, randomized, with ten times the examples of make test;
# and the fuzz of every door that writes (tests/api/test_write_fuzz.py) at ten times its requests.
fuzz: venv
	$(BIN)/python -m pytest -m hypothesis --hypothesis-profile=fuzz --hypothesis-show-statistics
	FIVES_FUZZ_SCALE=10 $(BIN)/python -m pytest -m fuzz -s

# Every page in every state, language, role and size, in chromium (tests/crawl; make test
# runs a sample of it drawn afresh each run): one test a language, two at a time. The faults
# are in test-artifacts/crawl/ (all-<language>.txt, and a screenshot of each).
crawl: venv
	rm -f test-artifacts/crawl/all-*.txt; FIVES_CRAWL=all $(BIN)/python -m pytest \
	  -n $(TEST_WORKERS) -p no:cacheprovider tests/crawl -m crawl; status=$$?; \
	head -qn1 test-artifacts/crawl/all-*.txt; exit $$status

# The guides' screenshots (docs/guides), taken again in chromium in each language and written
# into docs/img/shots/<language>/ (tests/docs/shots.py lists them).
shots: venv
	FIVES_SHOTS_WRITE=1 $(BIN)/python -m pytest -p no:cacheprovider tests/docs/test_guide_shots.py

# Debian's chromium for the browser tests (they skip, saying so, without it).
browser:
	@command -v chromium >/dev/null || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

# Debian's nginx and its brotli module, the production way's proxy (deploy/nginx-site.conf),
# for tests/test_proxy.py and bench.slowheaders (they skip, saying so, without it).
NGINX_BROTLI := /usr/lib/nginx/modules/ngx_http_brotli_static_module.so

proxy:
	@test -x /usr/sbin/nginx -a -e $(NGINX_BROTLI) || { \
	  echo "installing Debian's nginx and its brotli module for the proxy tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    nginx libnginx-mod-http-brotli-static; }

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Benchmarks print their figures; ingest uses DATABASE_URL and REDIS_URL when set.
bench: venv
	$(BIN)/python -m bench.engine
	$(BIN)/python -m bench.ingest
	$(BIN)/python -m bench.api

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
