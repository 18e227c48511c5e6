"""Record the table edit link each game was put at its table under

A renewed table edit link then stops a game's edit rights from starting its Rematch at
the table. Games already at a table take their table's edit link as it is now.

Revision ID: e3c1f4a2b9d6
Revises: d5a8e61f0c27
Create Date: 2026-12-04 17:15:00.000000

"""
import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = 'e3c1f4a2b9d6'
down_revision = 'd5a8e61f0c27'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('table_token_hash', sa.String(length=64), nullable=True))
    op.execute(
        'UPDATE games SET table_token_hash = '
        '(SELECT card_tables.edit_token_hash FROM card_tables '
        'WHERE card_tables.id = games.table_id) '
        'WHERE table_id IS NOT NULL'
    )


def downgrade():
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('table_token_hash')
