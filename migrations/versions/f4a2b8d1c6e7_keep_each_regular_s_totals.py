"""Keep each regular's deal and tag totals, so statistics cost the same at any size

Revision ID: f4a2b8d1c6e7
Revises: e3f1a7c9b2d4
Create Date: 2026-12-04 17:40:00.000000

"""
import sqlalchemy as sa
from alembic import op

from scorekeeper.store import records


# revision identifiers, used by Alembic.
revision = 'f4a2b8d1c6e7'
down_revision = 'e3f1a7c9b2d4'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'regular_deal_totals',
        sa.Column('table_player_id', sa.Integer(), nullable=False),
        sa.Column('ruleset', sa.String(length=40), nullable=False),
        sa.Column('role', sa.String(length=10), nullable=False),
        sa.Column('bid', sa.Integer(), nullable=False),
        sa.Column('made', sa.Integer(), nullable=False),
        sa.Column('deals', sa.Integer(), nullable=False),
        sa.Column('points', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['table_player_id'], ['table_players.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('table_player_id', 'ruleset', 'role', 'bid', 'made'),
    )
    op.create_table(
        'regular_tag_totals',
        sa.Column('table_player_id', sa.Integer(), nullable=False),
        sa.Column('ruleset', sa.String(length=40), nullable=False),
        sa.Column('tag', sa.String(length=20), nullable=False),
        sa.Column('deals', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['table_player_id'], ['table_players.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('table_player_id', 'ruleset', 'tag'),
    )
    # The totals of the records already kept, as the app writes them.
    records.write_deal_totals(op.get_bind())


def downgrade():
    op.drop_table('regular_tag_totals')
    op.drop_table('regular_deal_totals')
