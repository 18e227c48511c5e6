"""Record each game's next game, the one its Rematch started (made once)

Revision ID: d5a8e61f0c27
Revises: b7e4d2a91c3f
Create Date: 2026-12-01 22:45:00.000000

"""
import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = 'd5a8e61f0c27'
down_revision = 'b7e4d2a91c3f'
branch_labels = None
depends_on = None


def upgrade():
    # Batch mode: SQLite adds a foreign key and a unique constraint by copying the table.
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('next_game_id', sa.String(length=32), nullable=True))
        batch_op.create_unique_constraint('uq_games_next_game_id', ['next_game_id'])
        batch_op.create_foreign_key(
            'fk_games_next_game_id', 'games', ['next_game_id'], ['id'], ondelete='SET NULL'
        )


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_constraint('fk_games_next_game_id', type_='foreignkey')
        batch_op.drop_constraint('uq_games_next_game_id', type_='unique')
        batch_op.drop_column('next_game_id')
