"""Reads an AG-UI SSE stream on stdin the way a Python client of the ag-ui-protocol SDK does, and prints what it got.

The SDK (ag_ui.core) is the protocol's events as pydantic models and has no HTTP or SSE client of its own, so the
stream is split into events by the WHATWG event-stream rules (the parse every SSE client makes: `data:` lines
joined, `id:` sets the last event id, `:` comments and unknown fields ignored) and each event's data is validated
by the SDK's `Event` union (discriminated on `type`). Prints one JSON array: per event its last event id, the SDK
class it validated as, and the model dumped as the wire names it (only the fields the stream set).
"""

import json
import re
import sys

from ag_ui.core import Event
from pydantic import TypeAdapter

EVENTS = TypeAdapter(Event)


def sse_messages(text):
    """(last event id, data) per dispatched event, by https://html.spec.whatwg.org/#event-stream-interpretation."""
    last_id, data = None, []
    for line in re.split(r"\r\n|\r|\n", text):
        if line == "":
            if data:
                yield last_id, "\n".join(data)
            data = []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if field == "data":
            data.append(value)
        elif field == "id" and "\0" not in value:
            last_id = value


def main():
    read = []
    for last_id, data in sse_messages(sys.stdin.read()):
        event = EVENTS.validate_json(data)
        read.append(
            {
                "id": last_id,
                "model": type(event).__name__,
                "event": event.model_dump(mode="json", by_alias=True, exclude_unset=True),
            }
        )
    json.dump(read, sys.stdout)


if __name__ == "__main__":
    main()
