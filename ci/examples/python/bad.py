#!/usr/bin/python3
"""bad.py: the same client with a planted bug. Its user.ack carries the
received seq + 1000, a seq the server never sent. The server refuses each ack
(error.validation ACK_UNSENT), the client ignores that, the run completes and
the process exits 0; `wsconform gate --dialect myagent --fault drop-after=10 --
/usr/bin/python3 bad.py` fails it with myagent.ack-unsent."""

import sys

import client

if __name__ == "__main__":
    sys.exit(client.main(
        "bad.py",
        # BUG (planted): acknowledges an event it never received. The correct
        # value is received.
        ack_seq=lambda received: received + 1000,
        ignore_refusals=("ACK_UNSENT",),
    ))
