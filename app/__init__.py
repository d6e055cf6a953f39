"""Interview coach: practice interview questions and get rubric feedback."""

__version__ = "0.1.0"
