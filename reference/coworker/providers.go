package coworker

import (
	"fmt"
	"strings"
)

// Provider and model control: set_model, the catalog, auth methods, the
// OAuth and API-key auth flows and provider status (§Provider/model
// control, §Provider Bootstrap, §Provider Auth (OAuth), §Model Change).

// providerState is what the session knows about provider connections.
// Bounded by the catalog: at most one entry per provider and method.
type providerState struct {
	// mode is the auth mode of each connected provider: "api_key" or
	// "oauth".
	mode map[string]string
	// authorizing holds "provider/methodId" of OAuth flows that were
	// authorized and wait for their callback.
	authorizing map[string]bool
}

// newProviderState starts with OpenAI connected by API key: the provider
// of the default config.
func newProviderState() providerState {
	return providerState{mode: map[string]string{"openai": "api_key"}, authorizing: map[string]bool{}}
}

// minAPIKey is the length under which the scripted provider rejects a key,
// so clients can exercise a failed provider_auth_result.
const minAPIKey = 8

type catalogEntry struct {
	ID           string   `json:"id"`
	Name         string   `json:"name"`
	Models       []string `json:"models"`
	DefaultModel string   `json:"defaultModel"`
}

type providerCatalogEvent struct {
	head
	All       []catalogEntry    `json:"all"`
	Default   map[string]string `json:"default"`
	Connected []string          `json:"connected"`
}

type providerAuthMethodsEvent struct {
	head
	Methods map[string][]authMethod `json:"methods"`
}

type account struct {
	Email string `json:"email"`
	Name  string `json:"name"`
}

type providerStatusEntry struct {
	Provider   string   `json:"provider"`
	Authorized bool     `json:"authorized"`
	Verified   bool     `json:"verified"`
	Mode       string   `json:"mode,omitempty"`
	Account    *account `json:"account,omitempty"`
	Message    string   `json:"message"`
	CheckedAt  string   `json:"checkedAt"`
}

type providerStatusEvent struct {
	head
	Providers []providerStatusEntry `json:"providers"`
}

type providerAuthChallenge struct {
	head
	Provider  string    `json:"provider"`
	MethodID  string    `json:"methodId"`
	Challenge challenge `json:"challenge"`
}

type providerAuthResult struct {
	head
	Provider string `json:"provider"`
	MethodID string `json:"methodId"`
	OK       bool   `json:"ok"`
	Mode     string `json:"mode,omitempty"`
	Message  string `json:"message"`
}

// providerField reads a member naming a provider of the catalog (the
// ProviderName type); anything else fails validation.
func providerField(p *payload, name string) *providerInfo {
	id := p.str(name)
	if p.problem() != "" {
		return nil
	}
	prov := findProvider(id)
	if prov == nil {
		p.fail(name, fmt.Sprintf("must be one of %s, got %q", strings.Join(providerNames(), ", "), clip(id)))
	}
	return prov
}

// authTarget reads provider and methodId of a provider_auth_* request: the
// method must be one of that provider's.
func authTarget(p *payload) (*providerInfo, *authMethod) {
	prov := providerField(p, "provider")
	mid := p.name("methodId")
	if prov == nil || p.problem() != "" {
		return nil, nil
	}
	m := prov.method(mid)
	if m == nil {
		p.failf("unknown methodId %q for provider %s", clip(mid), prov.ID)
	}
	return prov, m
}

func (s *session) setModel(p *payload) func() {
	model := p.name("model")
	var prov *providerInfo
	if _, ok := p.get("provider"); ok {
		prov = providerField(p, "provider")
	}
	return func() {
		if prov == nil {
			prov = findProvider(s.cfg.Provider)
		}
		if !prov.hasModel(model) {
			s.fail(codeProviderError, srcProvider, fmt.Sprintf("Model %q is not offered by provider %s (models: %s)", clip(model), prov.ID, strings.Join(prov.Models, ", ")))
			return
		}
		s.cfg.Provider, s.cfg.Model = prov.ID, model
		s.emit(configUpdated{head: s.h("config_updated"), Config: s.cfg})
	}
}

func (s *session) providerCatalogGet(p *payload) func() {
	return func() { s.emit(s.catalogEvent()) }
}

func (s *session) catalogEvent() providerCatalogEvent {
	ev := providerCatalogEvent{head: s.h("provider_catalog"), Default: map[string]string{}, Connected: []string{}}
	for _, p := range providerCatalog {
		ev.All = append(ev.All, catalogEntry{ID: p.ID, Name: p.Name, Models: p.Models, DefaultModel: p.DefaultModel})
		ev.Default[p.ID] = p.DefaultModel
		if s.providers.mode[p.ID] != "" {
			ev.Connected = append(ev.Connected, p.ID)
		}
	}
	return ev
}

func (s *session) providerAuthMethodsGet(p *payload) func() {
	return func() {
		ev := providerAuthMethodsEvent{head: s.h("provider_auth_methods"), Methods: map[string][]authMethod{}}
		for _, p := range providerCatalog {
			ev.Methods[p.ID] = p.Methods
		}
		s.emit(ev)
	}
}

func (s *session) refreshProviderStatus(p *payload) func() {
	return func() { s.emit(s.statusEvent()) }
}

func (s *session) statusEvent() providerStatusEvent {
	ev := providerStatusEvent{head: s.h("provider_status")}
	now := s.env.Stamp()
	for _, p := range providerCatalog {
		e := providerStatusEntry{Provider: p.ID, CheckedAt: now, Message: "Not connected."}
		if mode := s.providers.mode[p.ID]; mode != "" {
			e.Authorized, e.Verified, e.Mode = true, true, mode
			e.Message = "API key verified."
			if mode == "oauth" {
				e.Account = &account{Email: "user@example.com", Name: "Demo User"}
				e.Message = "Verified via OIDC userinfo."
			}
		}
		ev.Providers = append(ev.Providers, e)
	}
	return ev
}

// providerAuthAuthorize starts the OAuth flow of an OAuth method and
// answers its challenge.
func (s *session) providerAuthAuthorize(p *payload) func() {
	prov, m := authTarget(p)
	return func() {
		if m.Type != "oauth" {
			s.fail(codeProviderError, srcProvider, fmt.Sprintf("Method %s of %s is not an OAuth method: send provider_auth_set_api_key", m.ID, prov.ID))
			return
		}
		s.providers.authorizing[prov.ID+"/"+m.ID] = true
		s.emit(providerAuthChallenge{head: s.h("provider_auth_challenge"), Provider: prov.ID, MethodID: m.ID, Challenge: *prov.Challenge})
	}
}

// providerAuthCallback completes an authorized OAuth flow. A flow that
// cannot complete is a provider_auth_result with ok false: the request was
// understood, the sign-in failed.
func (s *session) providerAuthCallback(p *payload) func() {
	prov, m := authTarget(p)
	code, hasCode := p.optStr("code")
	return func() {
		if m.Type != "oauth" {
			s.fail(codeProviderError, srcProvider, fmt.Sprintf("Method %s of %s is not an OAuth method: send provider_auth_set_api_key", m.ID, prov.ID))
			return
		}
		key := prov.ID + "/" + m.ID
		res := providerAuthResult{head: s.h("provider_auth_result"), Provider: prov.ID, MethodID: m.ID}
		switch {
		case !s.providers.authorizing[key]:
			res.Message = "No sign-in in progress for this method: send provider_auth_authorize first."
		case m.OAuthMode == "code" && (!hasCode || strings.TrimSpace(code) == ""):
			res.Message = "This method requires the code shown after signing in."
		default:
			delete(s.providers.authorizing, key)
			s.providers.mode[prov.ID] = "oauth"
			res.OK, res.Mode, res.Message = true, "oauth", "Signed in to "+prov.Name+"."
		}
		s.emitAuthResult(res)
	}
}

// providerAuthSetAPIKey stores an API key for an API-key method.
func (s *session) providerAuthSetAPIKey(p *payload) func() {
	prov, m := authTarget(p)
	key := p.name("apiKey")
	return func() {
		if m.Type != "api" {
			s.fail(codeProviderError, srcProvider, fmt.Sprintf("Method %s of %s is not an API-key method: send provider_auth_authorize", m.ID, prov.ID))
			return
		}
		res := providerAuthResult{head: s.h("provider_auth_result"), Provider: prov.ID, MethodID: m.ID}
		if len(strings.TrimSpace(key)) < minAPIKey {
			res.Message = fmt.Sprintf("The provider rejected the API key (shorter than %d characters).", minAPIKey)
		} else {
			s.providers.mode[prov.ID] = "api_key"
			res.OK, res.Mode, res.Message = true, "api_key", "Provider key saved."
		}
		s.emitAuthResult(res)
	}
}

// emitAuthResult sends the result and, when a provider got connected, the
// updated status and catalog, as §Provider Auth (OAuth) shows.
func (s *session) emitAuthResult(res providerAuthResult) {
	s.emit(res)
	if res.OK {
		s.emit(s.statusEvent())
		s.emit(s.catalogEvent())
	}
}
