package fastschema

import (
	"reflect"
	"time"

	"github.com/xeipuuv/gojsonschema"
)

// gojsonschema's date-time checker tries five layouts in an order that
// makes a full RFC 3339 timestamp, the common case, fail three parses
// first (each failure allocates its error): 11 % of hostd's frame. Their
// disjunction does not depend on the order, so isDateTime tries the same
// layouts with RFC 3339 first. It stands in for gojsonschema's only while
// FormatCheckers still holds gojsonschema's own checker for "date-time"
// (builtinDateTime, read when a schema compiles); otherwise the format is
// checked through FormatCheckers as every other one is.
var dateTimeLayouts = []string{time.RFC3339, time.RFC3339Nano, "15:04:05", "15:04:05Z07:00", "2006-01-02"}

func isDateTime(s string) bool {
	for _, l := range dateTimeLayouts {
		if _, err := time.Parse(l, s); err == nil {
			return true
		}
	}
	return false
}

// builtinDateTime reports whether gojsonschema's format chain checks
// "date-time" with its own DateTimeFormatChecker. The chain keeps its
// checkers in an unexported map, read here through reflect.
func builtinDateTime() bool {
	m := reflect.ValueOf(&gojsonschema.FormatCheckers).Elem().FieldByName("formatters")
	if !m.IsValid() || m.Kind() != reflect.Map || m.Type().Key().Kind() != reflect.String {
		return false
	}
	c := m.MapIndex(reflect.ValueOf("date-time"))
	if c.IsValid() && c.Kind() == reflect.Interface {
		c = c.Elem()
	}
	return c.IsValid() && c.Type() == reflect.TypeOf(gojsonschema.DateTimeFormatChecker{})
}
