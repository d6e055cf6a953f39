"""Domain errors: each carries an HTTP status and a message for people. One handler in
app.main renders them as a page, an htmx fragment or JSON; routes raise, they never format."""

from __future__ import annotations


class CoachError(Exception):
    status = 400
    title = "Something went wrong"

    def __init__(self, message: str, *, status: int | None = None):
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status


class QuestionNotFound(CoachError):
    status = 404
    title = "Question not found"


class AttemptNotFound(CoachError):
    status = 404
    title = "Attempt not found"


class AnswerRejected(CoachError):
    """The answer cannot be accepted as it is (empty, too long); the text stays with the user."""

    status = 422
    title = "Answer not accepted"

    def __init__(self, message: str, *, status: int | None = None, answer: str = ""):
        super().__init__(message, status=status)
        self.answer = answer


class GradingUnavailable(CoachError):
    status = 503
    title = "Grading unavailable"


class AudioRejected(CoachError):
    """An upload that is not usable audio: empty, not audio, too large or too long."""

    status = 422
    title = "Audio not accepted"


class TranscriptionUnavailable(CoachError):
    status = 503
    title = "Speech recognition unavailable"


class TranscriberBusy(CoachError):
    status = 503
    title = "Speech recognition busy"


class RecordingNotFound(CoachError):
    status = 404
    title = "Recording not found"
