"""`flask --app scorekeeper export`, `import` and `rebuild-records`: back up, restore, repair;
`assets`: build the static files as served."""

import sys
from pathlib import Path
from typing import Any, BinaryIO

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from scorekeeper.http import assets
from scorekeeper.store import exchange, games, records, tables


def init_app(app: Flask) -> None:
    """Register the commands on the app's `flask` command line."""
    app.cli.add_command(export_command)
    app.cli.add_command(import_command)
    app.cli.add_command(rebuild_records_command)
    app.cli.add_command(assets_command)


@click.command("assets")
@with_appcontext
def assets_command() -> None:
    """Build the static files as served: hashed names, brotli and gzip copies (make install)."""
    manifest = assets.manifest_of(current_app)
    folder = assets.built_folder(current_app)
    size = sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())
    click.echo(f"{len(manifest.files)} static files built in {folder} ({size:,} bytes).", err=True)


@click.command("export")
@with_appcontext
@click.option("--table", "table_id", help="Export this table and all its games.")
@click.option("--game", "game_id", help="Export this one game.")
@click.option(
    "--all", "everything", is_flag=True, help="Export every table and game, for a full backup."
)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Write to this file instead of standard output.",
)
@click.option(
    "--csv", "as_csv", is_flag=True, help="Write CSV (one row per deal per player) instead."
)
@click.option(
    "--with-secrets/--without-secrets",
    default=True,
    help="Keep edit-token hashes so a restore keeps every edit link working (default).",
)
def export_command(
    table_id: str | None,
    game_id: str | None,
    everything: bool,
    output: Path | None,
    as_csv: bool,
    with_secrets: bool,
) -> None:
    """Export a table or a game as lossless JSON (or CSV for spreadsheets)."""
    if sum(bool(x) for x in (table_id, game_id, everything)) != 1:
        raise click.UsageError("Give exactly one of --table, --game or --all.")
    if everything:
        if as_csv:
            raise click.UsageError("--all writes JSON only.")
        document = exchange.export_everything(include_secrets=with_secrets)
        _write(exchange.dumps(document), output)
        count = sum(len(d["games"]) for d in document["documents"])
        click.echo(f"Exported {len(document['documents'])} documents, {count} games.", err=True)
        return
    if table_id:
        table = tables.get_table(table_id)
        if table is None:
            raise click.ClickException(f"There is no table {table_id}.")
        if as_csv:
            text = exchange.table_csv(table)
        else:
            text = exchange.dumps(exchange.export_table(table, include_secrets=with_secrets))
    else:
        assert game_id is not None  # exactly one of the three was given
        game = games.get_game(game_id, deals=False)
        if game is None:
            raise click.ClickException(f"There is no game {game_id}.")
        if as_csv:
            text = exchange.game_csv(game)
        else:
            text = exchange.dumps(exchange.export_game(game, include_secrets=with_secrets))
    _write(text, output)


class _ProgressBar:
    """Click's progress bar on standard error (standard output keeps the edit tokens),
    made when the import first says how many games the file holds."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.bar: Any = None

    def show(self, done: int, total: int) -> None:
        """Move the bar to `done` of `total` games."""
        if self.bar is None:
            self.bar = click.progressbar(length=total, label=self.label, file=sys.stderr)
            self.bar.__enter__()
        self.bar.update(done - self.bar.pos)

    def close(self) -> None:
        """Finish the bar's line, if there is a bar."""
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


@click.command("import")
@with_appcontext
@click.argument("source", type=click.File("rb"))
@click.option(
    "--copy",
    is_flag=True,
    help="Import as new games with new ids and edit links (default: restore ids and links).",
)
@click.option("--table", "table_id", help="Put the games at this existing table.")
def import_command(source: BinaryIO, copy: bool, table_id: str | None) -> None:
    """Import an export file (JSON, or CSV), after checking every deal; all or nothing."""
    table = None
    if table_id:
        table = tables.get_table(table_id)
        if table is None:
            raise click.ClickException(f"There is no table {table_id}.")
    bar = _ProgressBar("Checking games")
    try:
        document = exchange.load(source.read())
        results = exchange.import_documents(
            exchange.documents_of(document), keep_ids=not copy, table=table, progress=bar.show
        )
    except exchange.ImportRefused as error:
        raise click.ClickException(f"Nothing was imported. {error}") from None
    finally:
        bar.close()
    for result in results:
        if result.table is not None:
            click.echo(f"Table {result.table.name!r}: {result.table.id}")
            if result.table_token:
                click.echo(f"  edit token: {result.table_token}")
        count = len(result.games)
        click.echo(f"Imported {count} game{'' if count == 1 else 's'}.")
        for game_id, token in result.game_tokens.items():
            click.echo(f"  game {game_id} edit token: {token}")


@click.command("rebuild-records")
@with_appcontext
def rebuild_records_command() -> None:
    """Write every per-seat deal record and won flag again from the stored deals."""
    rows = records.rebuild()
    click.echo(f"Rebuilt {rows} per-seat deal records.")


def _write(text: str, output: Path | None) -> None:
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")
