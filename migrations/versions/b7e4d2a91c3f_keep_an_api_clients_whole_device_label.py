"""Keep an API client's whole device label: ``api:`` and up to 80 characters

Revision ID: b7e4d2a91c3f
Revises: 7c41d0e9a5b2
Create Date: 2026-12-01 22:00:00.000000

"""
import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = 'b7e4d2a91c3f'
down_revision = '7c41d0e9a5b2'
branch_labels = None
depends_on = None


def upgrade():
    # Batch mode: SQLite changes a column's type by copying the table; PostgreSQL only
    # widens the column (no rewrite).
    with op.batch_alter_table('changes', schema=None) as batch_op:
        batch_op.alter_column(
            'device', existing_type=sa.String(length=80), type_=sa.String(length=84)
        )


def downgrade():
    # A longer label is cut to what the narrower column holds.
    op.execute("UPDATE changes SET device = substr(device, 1, 80) WHERE length(device) > 80")
    with op.batch_alter_table('changes', schema=None) as batch_op:
        batch_op.alter_column(
            'device', existing_type=sa.String(length=84), type_=sa.String(length=80)
        )
