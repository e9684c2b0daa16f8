package replay

import (
	"fmt"
	"sync"
)

// Imported protocols (an AsyncAPI document's x-wsconform.replay) bring
// their replay knowledge as data; Define adds it beside the table of the
// five built-in dialects.
var (
	definedMu sync.RWMutex
	defined   = map[string]Knowledge{}
)

// Define sets the replay knowledge of an imported protocol. A name of a
// built-in dialect is refused.
func Define(dialect string, k Knowledge) error {
	if _, builtin := knowledge[dialect]; builtin {
		return fmt.Errorf("dialect %q has built-in replay knowledge", dialect)
	}
	definedMu.Lock()
	defined[dialect] = k
	definedMu.Unlock()
	return nil
}

func definedKnowledge(dialect string) Knowledge {
	definedMu.RLock()
	defer definedMu.RUnlock()
	return defined[dialect]
}
