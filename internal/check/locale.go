package check

import "github.com/xeipuuv/gojsonschema"

// quietLocale makes gojsonschema skip rendering its English error texts.
// It renders one text/template per failing keyword, including the many
// that fail harmlessly inside if/anyOf branches; that rendering dominated
// the cost of validating a frame (coworker's model_stream_chunk has 24
// if/then branches). schemaFinding writes its own text from the error type
// and details, so nothing is lost. Compile-time messages keep the default.
type quietLocale struct{ gojsonschema.DefaultLocale }

var _ = func() bool { gojsonschema.Locale = quietLocale{}; return true }()

func (quietLocale) False() string                        { return "" }
func (quietLocale) Required() string                     { return "" }
func (quietLocale) InvalidType() string                  { return "" }
func (quietLocale) NumberAnyOf() string                  { return "" }
func (quietLocale) NumberOneOf() string                  { return "" }
func (quietLocale) NumberAllOf() string                  { return "" }
func (quietLocale) NumberNot() string                    { return "" }
func (quietLocale) MissingDependency() string            { return "" }
func (quietLocale) Internal() string                     { return "" }
func (quietLocale) Const() string                        { return "" }
func (quietLocale) Enum() string                         { return "" }
func (quietLocale) ArrayNotEnoughItems() string          { return "" }
func (quietLocale) ArrayNoAdditionalItems() string       { return "" }
func (quietLocale) ArrayMinItems() string                { return "" }
func (quietLocale) ArrayMaxItems() string                { return "" }
func (quietLocale) Unique() string                       { return "" }
func (quietLocale) ArrayContains() string                { return "" }
func (quietLocale) ArrayMinProperties() string           { return "" }
func (quietLocale) ArrayMaxProperties() string           { return "" }
func (quietLocale) AdditionalPropertyNotAllowed() string { return "" }
func (quietLocale) InvalidPropertyPattern() string       { return "" }
func (quietLocale) InvalidPropertyName() string          { return "" }
func (quietLocale) StringGTE() string                    { return "" }
func (quietLocale) StringLTE() string                    { return "" }
func (quietLocale) DoesNotMatchPattern() string          { return "" }
func (quietLocale) DoesNotMatchFormat() string           { return "" }
func (quietLocale) MultipleOf() string                   { return "" }
func (quietLocale) NumberGTE() string                    { return "" }
func (quietLocale) NumberGT() string                     { return "" }
func (quietLocale) NumberLTE() string                    { return "" }
func (quietLocale) NumberLT() string                     { return "" }
func (quietLocale) ConditionThen() string                { return "" }
func (quietLocale) ConditionElse() string                { return "" }
