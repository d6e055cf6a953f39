"""follow-up thread: the interviewer's questions after grading and the user's answers

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02 16:00:00
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('followupturn',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('attempt_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('question_text', sa.Text(), nullable=False),
    sa.Column('checkpoint_id', sqlmodel.sql.sqltypes.AutoString(length=120), nullable=True),
    sa.Column('source', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('answer_text', sa.Text(), nullable=True),
    sa.Column('reply_text', sa.Text(), nullable=True),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('answered_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.ForeignKeyConstraint(['attempt_id'], ['attempt.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('attempt_id', 'position', name='uq_followupturn_attempt_position')
    )
    with op.batch_alter_table('followupturn', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_followupturn_attempt_id'), ['attempt_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('followupturn', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_followupturn_attempt_id'))

    op.drop_table('followupturn')
