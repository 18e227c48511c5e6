"""Index each regular's seats by game, with the won flag: plans that need no statistics

Revision ID: e3f1a7c9b2d4
Revises: e3c1f4a2b9d6
Create Date: 2026-12-04 17:00:00.000000

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = 'e3f1a7c9b2d4'
down_revision = 'e3c1f4a2b9d6'
branch_labels = None
depends_on = None


def upgrade():
    # The new index starts with the old one's column, so it serves every query the old did.
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.create_index(
            'ix_players_regular', ['table_player_id', 'game_id', 'won'], unique=False
        )
        batch_op.drop_index('ix_players_table_player_id')


def downgrade():
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.create_index('ix_players_table_player_id', ['table_player_id'], unique=False)
        batch_op.drop_index('ix_players_regular')
