"""Check statuses, change-log actions, roles and seats in the database itself

Revision ID: 065226bd5974
Revises: c2b0e336b95a
Create Date: 2026-12-01 06:00:00.000000

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '065226bd5974'
down_revision = 'c2b0e336b95a'
branch_labels = None
depends_on = None

# Written out rather than imported from the models: a migration keeps the rules of its day.
CHECKS = {
    'games': [
        ('ck_games_status', "status IN ('in_progress', 'won', 'shared', 'drawn')"),
        ('ck_games_dealers', 'first_dealer >= 0 AND next_dealer >= 0'),
        ('ck_games_counts', 'deal_count >= 0 AND version >= 1'),
    ],
    'players': [
        ('ck_players_seat', 'seat >= 0'),
    ],
    'deals': [
        ('ck_deals_number', 'number >= 1'),
    ],
    'changes': [
        ('ck_changes_action', "action IN ('add', 'correct', 'undo')"),
        ('ck_changes_number', 'number >= 1'),
    ],
    'deal_seats': [
        ('ck_deal_seats_place', 'seat >= 0 AND number >= 1'),
        ('ck_deal_seats_role', "role IN ('bidder', 'partner', 'opponent', 'none')"),
    ],
}


def upgrade():
    # Batch mode: SQLite adds a constraint by copying the table (env.py turns its
    # foreign keys off meanwhile); PostgreSQL runs ALTER TABLE … ADD CONSTRAINT.
    for table, checks in CHECKS.items():
        with op.batch_alter_table(table, schema=None) as batch_op:
            for name, condition in checks:
                batch_op.create_check_constraint(name, condition)


def downgrade():
    for table, checks in reversed(list(CHECKS.items())):
        with op.batch_alter_table(table, schema=None) as batch_op:
            for name, _condition in reversed(checks):
                batch_op.drop_constraint(name, type_='check')
