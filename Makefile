# Two commands for a new user: `make run` and `make test`. Each installs what it needs itself.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 5000
CHROMIUM := /usr/bin/chromium

.PHONY: install run serve test browser bench lint typecheck clean translations

# Each language's catalog, compiled (the .mo files are built here, not committed).
CATALOGS := $(wildcard scorekeeper/translations/*/LC_MESSAGES/messages.po)
COMPILED := $(CATALOGS:.po=.mo)

install: $(VENV)/.installed $(COMPILED)

$(VENV)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

# Recompile a language whenever its catalog changed.
$(COMPILED): %.mo: %.po | $(VENV)/.installed
	$(BIN)/pybabel compile --statistics -i $< -o $@

# Collect the messages of the code and pages into messages.pot and merge them into every
# catalog; then translate what is new (no fuzzy entry may stay: the tests check).
translations: install
	$(BIN)/pybabel extract -F babel.cfg -k _l --add-comments=Translators: --add-location=file \
		--project=Scorekeeper -o scorekeeper/translations/messages.pot .
	$(BIN)/pybabel update -i scorekeeper/translations/messages.pot -d scorekeeper/translations \
		--ignore-obsolete

# Serve on the embedded SQLite database; HOST=0.0.0.0 serves the phones on the local network.
run: install
	$(BIN)/flask --app scorekeeper db upgrade
	$(BIN)/flask --app scorekeeper run --host $(HOST) --port $(PORT)

# The same app as the Procfile serves it, with gunicorn.
serve: install
	$(BIN)/flask --app scorekeeper db upgrade
	$(BIN)/gunicorn --workers 2 --bind $(HOST):$(PORT) 'scorekeeper:create_app()'

# Debian's Chromium for the browser tests; Playwright never downloads a browser here.
browser: $(CHROMIUM)

$(CHROMIUM):
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core

test: install browser
	$(BIN)/python -m pytest

# Speed and query-count targets: a late deal costs what an early one costs, and a season
# of 10,000 games keeps every page's statements fixed. BENCH_DATABASE=postgresql+psycopg://…
# runs them on PostgreSQL instead of a temporary SQLite file.
bench: install
	$(BIN)/python -m bench.deals $(if $(BENCH_DATABASE),--database $(BENCH_DATABASE))
	$(BIN)/python -m bench $(if $(BENCH_DATABASE),--database $(BENCH_DATABASE))

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The type check alone; its settings (strict for the engine) are in pyproject.toml.
typecheck: install
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis
