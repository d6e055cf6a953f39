"""recordings: spoken answers with their transcript, word timing and (optionally) audio

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02 16:00:00
"""
from alembic import op
import sqlalchemy as sa
import sqlmodel


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('recording',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('attempt_id', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=True),
    sa.Column('question_id', sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
    sa.Column('mime', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('audio', sa.LargeBinary(), nullable=True),
    sa.Column('audio_size', sa.Integer(), nullable=False),
    sa.Column('transcript', sa.Text(), nullable=False),
    sa.Column('words', sa.JSON(), nullable=True),
    sa.Column('duration_seconds', sa.Float(), nullable=False),
    sa.Column('language', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=True),
    sa.Column('transcriber', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['attempt_id'], ['attempt.id'], ),
    sa.ForeignKeyConstraint(['user_id'], ['user.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('recording', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_recording_attempt_id'), ['attempt_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_recording_created_at'), ['created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_recording_user_id'), ['user_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('recording', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_recording_user_id'))
        batch_op.drop_index(batch_op.f('ix_recording_created_at'))
        batch_op.drop_index(batch_op.f('ix_recording_attempt_id'))

    op.drop_table('recording')
