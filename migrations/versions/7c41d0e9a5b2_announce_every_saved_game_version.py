"""Announce every saved game version on PostgreSQL, for the phones following it live

A trigger on ``games`` sends ``NOTIFY game_versions, '<id> <version>'`` when a change
commits; each app process listens and wakes the streams following that game. SQLite has
no notifications: the app reads the followed games' versions instead.

Revision ID: 7c41d0e9a5b2
Revises: 353a72f2bed9
Create Date: 2026-12-01 10:00:00.000000

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '7c41d0e9a5b2'
down_revision = '353a72f2bed9'
branch_labels = None
depends_on = None

# Written out here rather than imported: a migration keeps the schema of its own day.
FUNCTION = """CREATE OR REPLACE FUNCTION notify_game_version() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('game_versions', NEW.id || ' ' || NEW.version);
    RETURN NULL;
END
$$ LANGUAGE plpgsql"""

TRIGGER = """CREATE TRIGGER games_notify_version AFTER UPDATE OF version ON games
FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version)
EXECUTE FUNCTION notify_game_version()"""


def upgrade():
    if op.get_bind().dialect.name != 'postgresql':
        return
    op.execute(FUNCTION)
    op.execute(TRIGGER)


def downgrade():
    if op.get_bind().dialect.name != 'postgresql':
        return
    op.execute('DROP TRIGGER IF EXISTS games_notify_version ON games')
    op.execute('DROP FUNCTION IF EXISTS notify_game_version()')
