#!/usr/bin/python3
"""good.py: a well-behaved MyAgent client. It acknowledges exactly the seqs it
received and reconnects with user.reconnect_with_state{last_seq: the last seq
it received}. `wsconform gate --dialect myagent --fault drop-after=10 --
/usr/bin/python3 good.py` passes."""

import sys

import client

if __name__ == "__main__":
    sys.exit(client.main("good.py", ack_seq=lambda received: received))
