package hostd

import (
	"errors"
	"fmt"

	"github.com/wsconform/wsconform/reference/server"
)

// inbound decodes a client frame, refusing what no hostd message can be.
func (s *srv) inbound(in server.Inbound) (envelope, error) {
	switch {
	case in.Oversize:
		return envelope{}, fmt.Errorf("message of %d bytes is over the %d-byte limit", in.Size, s.env.MaxFrame)
	case in.Binary:
		return envelope{}, errors.New("binary frame: hostd messages are JSON text")
	}
	return decode(in.Data)
}

func errNotForApps(typ string) error {
	if isEvent(typ) || typ == typeAck {
		return fmt.Errorf("%s is sent by hosts on /ws/host or by the server, not by apps", typ)
	}
	return fmt.Errorf("unknown message type %q", typ)
}

func errNotForHosts(typ string) error {
	if _, ok := commandFields[typ]; ok || typ == typeAck {
		return fmt.Errorf("%s is sent by apps on /ws/app or by the server, not by hosts", typ)
	}
	return fmt.Errorf("unknown message type %q", typ)
}
