"""Store each seat's role and statistics tags as the ruleset describes them

The per-seat records were worked out for one game only (an ``alone`` column).
Each ruleset now says which tags a seat earns in a deal; they go to ``deal_seat_tags``,
and every row is rebuilt from the stored deals.

Revision ID: 353a72f2bed9
Revises: 065226bd5974
Create Date: 2026-12-01 10:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '353a72f2bed9'
down_revision = '065226bd5974'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('deal_seat_tags',
    sa.Column('game_id', sa.String(length=32), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('tag', sa.String(length=20), nullable=False),
    sa.Column('table_player_id', sa.Integer(), nullable=True),
    sa.Column('ruleset', sa.String(length=40), nullable=False),
    sa.ForeignKeyConstraint(['game_id', 'number', 'seat'], ['deal_seats.game_id', 'deal_seats.number', 'deal_seats.seat'], name='fk_deal_seat_tags_deal_seat', ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['table_player_id'], ['table_players.id'], name='fk_deal_seat_tags_table_player_id', ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('game_id', 'number', 'seat', 'tag')
    )
    with op.batch_alter_table('deal_seat_tags', schema=None) as batch_op:
        batch_op.create_index('ix_deal_seat_tags_stats', ['table_player_id', 'ruleset', 'tag'], unique=False)

    # The rows are rebuilt below, so the new column needs no value for the old ones.
    op.execute('DELETE FROM deal_seats')
    with op.batch_alter_table('deal_seats', schema=None) as batch_op:
        batch_op.drop_index('ix_deal_seats_stats')
        batch_op.drop_column('alone')
        batch_op.add_column(sa.Column('ruleset', sa.String(length=40), nullable=False))
        batch_op.create_index('ix_deal_seats_stats', ['table_player_id', 'ruleset', 'role', 'bid', 'made', 'delta'], unique=False)

    # Rebuild every row from the stored deals, as `flask rebuild-records` does.
    from scorekeeper.store import records

    records.write_all(op.get_bind())


def downgrade():
    with op.batch_alter_table('deal_seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('alone', sa.Boolean(), server_default=sa.false(), nullable=False))
    seats = sa.table('deal_seats', sa.column('game_id'), sa.column('number'), sa.column('seat'), sa.column('alone', sa.Boolean()))
    tags = sa.table('deal_seat_tags', sa.column('game_id'), sa.column('number'), sa.column('seat'), sa.column('tag'))
    alone = (
        sa.select(sa.literal(1))
        .where(
            tags.c.game_id == seats.c.game_id,
            tags.c.number == seats.c.number,
            tags.c.seat == seats.c.seat,
            tags.c.tag == 'alone',
        )
        .exists()
    )
    op.get_bind().execute(seats.update().where(alone).values(alone=sa.true()))
    with op.batch_alter_table('deal_seats', schema=None) as batch_op:
        batch_op.alter_column('alone', server_default=None)
        batch_op.drop_index('ix_deal_seats_stats')
        batch_op.drop_column('ruleset')
        batch_op.create_index('ix_deal_seats_stats', ['table_player_id', 'role', 'bid', 'made', 'alone', 'delta'], unique=False)

    with op.batch_alter_table('deal_seat_tags', schema=None) as batch_op:
        batch_op.drop_index('ix_deal_seat_tags_stats')
    op.drop_table('deal_seat_tags')
