"""Spoken answers: decode browser audio, transcribe it (offline or through an endpoint), measure delivery.

``audio`` decodes any container to 16 kHz mono, ``transcribe`` holds the recognizers behind one
interface, ``delivery`` is pure arithmetic over a transcript and its timing, and ``service``
runs transcription on a bounded pool and stores recordings.
"""
