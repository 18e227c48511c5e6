"""Keep each regular's games by outcome, finished games with their streaks, tables' endings

Revision ID: a9d3e5f7c1b2
Revises: f4a2b8d1c6e7
Create Date: 2026-12-06 13:00:00.000000

"""
import sqlalchemy as sa
from alembic import op

from scorekeeper.store import records


# revision identifiers, used by Alembic.
revision = 'a9d3e5f7c1b2'
down_revision = 'f4a2b8d1c6e7'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'regular_game_totals',
        sa.Column('table_player_id', sa.Integer(), nullable=False),
        sa.Column('ruleset', sa.String(length=40), nullable=False),
        sa.Column('status', sa.String(length=20), nullable=False),
        sa.Column('decided_by', sa.String(length=20), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.Column('won', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['table_player_id'], ['table_players.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('table_player_id', 'ruleset', 'status', 'decided_by'),
    )
    op.create_table(
        'regular_results',
        sa.Column('table_player_id', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('game_id', sa.String(length=32), nullable=False),
        sa.Column('won', sa.Boolean(), nullable=False),
        sa.Column('streak', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['table_player_id'], ['table_players.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('table_player_id', 'created_at', 'game_id'),
    )
    op.create_table(
        'table_endings',
        sa.Column('table_id', sa.String(length=32), nullable=False),
        sa.Column('decided_by', sa.String(length=20), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['table_id'], ['card_tables.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('table_id', 'decided_by'),
    )
    with op.batch_alter_table('regular_results', schema=None) as batch_op:
        batch_op.create_index('ix_regular_results_streak', ['table_player_id', 'streak'], unique=False)
        batch_op.create_index('ix_regular_results_game', ['game_id'], unique=False)
    # The games and streaks of the records already kept, as the app writes them.
    records.write_game_totals(op.get_bind())


def downgrade():
    with op.batch_alter_table('regular_results', schema=None) as batch_op:
        batch_op.drop_index('ix_regular_results_game')
        batch_op.drop_index('ix_regular_results_streak')
    op.drop_table('table_endings')
    op.drop_table('regular_results')
    op.drop_table('regular_game_totals')
