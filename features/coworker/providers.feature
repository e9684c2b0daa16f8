@coworker
Feature: Provider and model control
  coworker-v3.md §Provider/model control: provider_catalog_get →
  provider_catalog, provider_auth_methods_get → provider_auth_methods,
  refresh_provider_status → provider_status, provider_auth_authorize →
  provider_auth_challenge, provider_auth_callback and
  provider_auth_set_api_key → provider_auth_result, set_model →
  config_updated. The requests use the spec's own example values.

  Background:
    Given a client connects
    And the client receives "server_hello"
    And I remember its "sessionId" as "sid"

  @id:coworker.providers.catalog
  @req:coworker.provider-catalog-get.definition @req:coworker.provider-catalog.shape
  Scenario: provider_catalog_get is answered with provider_catalog
    coworker-v3.md §provider_catalog_get: "Request provider catalog metadata
    (all providers, default models, connected providers)"; §provider_catalog:
    {all, default, connected}.

    When the client sends:
      """
      {"type": "provider_catalog_get", "sessionId": "{sid}"}
      """
    Then the client receives "provider_catalog"
    And its "sessionId" is "{sid}"
    And its "all" is an array
    And its "all.0.id" is a string
    And its "all.0.models" is an array
    And its "all.0.defaultModel" is a string
    And its "default" is an object
    And its "connected" is an array

  @id:coworker.providers.auth-methods
  @req:coworker.provider-auth-methods-get.definition @req:coworker.provider-auth-methods.shape
  Scenario: provider_auth_methods_get is answered with provider_auth_methods
    coworker-v3.md §provider_auth_methods_get: "Request supported provider
    auth methods"; §provider_auth_methods: methods keyed by provider id.

    When the client sends:
      """
      {"type": "provider_auth_methods_get", "sessionId": "{sid}"}
      """
    Then the client receives "provider_auth_methods"
    And its "sessionId" is "{sid}"
    And its "methods" is an object

  @id:coworker.providers.status
  @req:coworker.provider-status.response @req:coworker.refresh-provider-status.definition @req:coworker.provider-status.shape
  Scenario: refresh_provider_status is answered with provider_status
    coworker-v3.md §refresh_provider_status, §provider_status: "Sent in
    response to refresh_provider_status", a providers list with
    authorized/verified per provider.

    When the client sends:
      """
      {"type": "refresh_provider_status", "sessionId": "{sid}"}
      """
    Then the client receives "provider_status"
    And its "sessionId" is "{sid}"
    And its "providers" is an array

  @id:coworker.providers.bootstrap
  @req:coworker.flow.provider-bootstrap @req:coworker.provider-catalog-get.definition @req:coworker.provider-auth-methods-get.definition @req:coworker.provider-status.response
  Scenario: The provider bootstrap requests are each answered
    coworker-v3.md §Provider Bootstrap: provider_catalog_get,
    provider_auth_methods_get and refresh_provider_status are answered with
    provider_catalog, provider_auth_methods and provider_status. The spec
    promises no order among the answers, and a server may also send them
    unasked on connect (the real agent-coworker does), so each request is
    followed by its own answer before the next is sent.

    When the client sends:
      """
      {"type": "provider_catalog_get", "sessionId": "{sid}"}
      """
    Then the client receives "provider_catalog"
    When the client sends:
      """
      {"type": "provider_auth_methods_get", "sessionId": "{sid}"}
      """
    Then the client receives "provider_auth_methods"
    When the client sends:
      """
      {"type": "refresh_provider_status", "sessionId": "{sid}"}
      """
    Then the client receives "provider_status"

  @id:coworker.providers.set-model
  @req:coworker.config-updated.emitted @req:coworker.set-model.definition @req:coworker.type.config-subset @req:coworker.flow.model-change
  Scenario: set_model is answered with config_updated
    coworker-v3.md §set_model: "Switch AI model and/or provider at runtime";
    §config_updated: emitted by set_model with the new config; §Model Change.

    When the client sends:
      """
      {"type": "set_model", "sessionId": "{sid}", "model": "claude-3-opus", "provider": "anthropic"}
      """
    Then the client receives "config_updated"
    And its "sessionId" is "{sid}"
    And its "config.provider" is "anthropic"
    And its "config.model" is "claude-3-opus"
    And its "config.workingDirectory" is a string
    And its "config.outputDirectory" is a string

  @id:coworker.providers.set-model-claude-code
  @req:coworker.type.provider-name @req:coworker.set-model.definition @req:coworker.config-updated.emitted
  Scenario: set_model accepts every ProviderName, claude-code included
    coworker-v3.md §Type Definitions: type ProviderName = "google" |
    "openai" | "anthropic" | "codex-cli" | "claude-code"; §set_model:
    "Switch AI model and/or provider at runtime"; §config_updated: emitted by
    set_model with the new config. A provider the spec's own type lists is
    not an invalid field (§Error Reference: validation_failed "Required
    field missing/invalid"). set_model changes the session's config only.

    When the client sends:
      """
      {"type": "set_model", "sessionId": "{sid}", "provider": "claude-code", "model": "claude-sonnet-4-5"}
      """
    Then the client receives "config_updated"
    And its "config.provider" is "claude-code"
    And its "config.model" is "claude-sonnet-4-5"
    And the client has received no "error"

  @id:coworker.providers.set-model-same-provider
  @req:coworker.set-model.definition @req:coworker.set-model.shape @req:coworker.config-updated.emitted
  Scenario: set_model without provider switches the model only
    coworker-v3.md §set_model: provider is optional ("Switch AI model and/or
    provider"); §Model Change.

    When the client sends:
      """
      {"type": "set_model", "sessionId": "{sid}", "model": "gpt-5.2", "provider": "openai"}
      """
    And the client receives "config_updated"
    And the client sends:
      """
      {"type": "set_model", "sessionId": "{sid}", "model": "gpt-5.2-codex"}
      """
    Then the client receives "config_updated" with:
      """
      {"config": {"model": "gpt-5.2-codex"}}
      """
    And its "config.provider" is "openai"

  @id:coworker.providers.oauth-authorize
  @req:coworker.provider-auth-challenge.returned @req:coworker.provider-auth-authorize.definition @req:coworker.provider-auth-challenge.shape
  Scenario: provider_auth_authorize is answered with a challenge
    coworker-v3.md §provider_auth_authorize: "Start an auth challenge for an
    OAuth-capable method"; §provider_auth_challenge: "Challenge details
    returned by provider_auth_authorize" {provider, methodId, challenge}.

    When the client sends:
      """
      {"type": "provider_auth_authorize", "sessionId": "{sid}", "provider": "codex-cli", "methodId": "oauth_cli"}
      """
    Then the client receives "provider_auth_challenge"
    And its "provider" is "codex-cli"
    And its "methodId" is "oauth_cli"
    And its "challenge" is an object
    And its "challenge.method" is a string
    And its "challenge.instructions" is a string

  @id:coworker.providers.oauth-callback @reference-fixture @mutates-target
  @req:coworker.provider-auth-result.result-of @req:coworker.provider-auth-callback.definition @req:coworker.provider-auth-result.shape
  Scenario: provider_auth_callback is answered with provider_auth_result
    coworker-v3.md §provider_auth_callback: "Complete an auth flow after
    authorize"; §provider_auth_result: "Result of provider_auth_set_api_key
    or provider_auth_callback" {provider, methodId, ok, mode?, message?}.
    The reference server's demo sign-in completes at once (a fixture); a
    real server's OAuth callback runs an interactive sign-in that waits for
    a person at a browser and stores credentials on success.

    When the client sends:
      """
      {"type": "provider_auth_authorize", "sessionId": "{sid}", "provider": "codex-cli", "methodId": "oauth_cli"}
      """
    And the client receives "provider_auth_challenge"
    And the client sends:
      """
      {"type": "provider_auth_callback", "sessionId": "{sid}", "provider": "codex-cli", "methodId": "oauth_cli"}
      """
    Then the client receives "provider_auth_result"
    And its "provider" is "codex-cli"
    And its "methodId" is "oauth_cli"
    And its "ok" is a boolean
    And the client sends:
      """
      {"type": "ping", "sessionId": "{sid}"}
      """
    And the client receives "pong"

  @id:coworker.providers.oauth-flow @reference-fixture @mutates-target
  @req:coworker.flow.provider-auth @req:coworker.provider-auth-result.result-of @req:coworker.provider-auth-challenge.shape
  Scenario: A successful OAuth sign-in is followed by status and catalog
    coworker-v3.md §Provider Auth (OAuth): authorize → provider_auth_challenge
    {challenge: {method: "auto", ...}}, callback → provider_auth_result
    {ok: true, mode: "oauth"}, provider_status, provider_catalog. Uses the
    reference server's demo sign-in, which succeeds (a fixture). The
    challenge's command "codex login" is only the spec's example, so only
    its method is matched.

    When the client sends:
      """
      {"type": "provider_auth_authorize", "sessionId": "{sid}", "provider": "codex-cli", "methodId": "oauth_cli"}
      """
    And the client receives "provider_auth_challenge" with:
      """
      {"challenge": {"method": "auto"}}
      """
    And the client sends:
      """
      {"type": "provider_auth_callback", "sessionId": "{sid}", "provider": "codex-cli", "methodId": "oauth_cli"}
      """
    Then the client receives, in order:
      | provider_auth_result | {"provider": "codex-cli", "ok": true, "mode": "oauth"} |
      | provider_status      |                                                        |
      | provider_catalog     |                                                        |
    And its "connected" contains "codex-cli"

  @id:coworker.providers.set-api-key @mutates-target
  @req:coworker.provider-auth-result.result-of @req:coworker.provider-auth-set-api-key.definition @req:coworker.provider-auth-result.shape
  Scenario: provider_auth_set_api_key is answered with provider_auth_result
    coworker-v3.md §provider_auth_set_api_key: "Set an API key for a provider
    auth method"; §provider_auth_result. Saving a key changes the target's
    stored credentials (~/.cowork), outside the session.

    When the client sends:
      """
      {"type": "provider_auth_set_api_key", "sessionId": "{sid}", "provider": "openai", "methodId": "api_key", "apiKey": "sk-proj-wsconform-{unique}"}
      """
    Then the client receives "provider_auth_result"
    And its "provider" is "openai"
    And its "methodId" is "api_key"
    And its "ok" is a boolean
    And the client sends:
      """
      {"type": "ping", "sessionId": "{sid}"}
      """
    And the client receives "pong"

  @id:coworker.providers.set-api-key-saved @scripted @mutates-target
  @req:coworker.provider.rejected-key @req:coworker.provider-auth-result.result-of @req:coworker.provider-auth-result.shape
  Scenario: A saved API key connects the provider
    coworker-v3.md §provider_auth_result example: {ok: true, mode: "api_key",
    message: "Provider key saved."}. Interpretation: like the OAuth flow, a
    connected provider is followed by provider_status and provider_catalog.
    The reference server accepts keys of 8 characters or more.

    When the client sends:
      """
      {"type": "provider_auth_set_api_key", "sessionId": "{sid}", "provider": "google", "methodId": "api_key", "apiKey": "AIza-wsconform-{unique}"}
      """
    Then the client receives, in order:
      | provider_auth_result | {"provider": "google", "ok": true, "mode": "api_key"} |
      | provider_status      |                                                       |
      | provider_catalog     |                                                       |
    And its "connected" contains "google"

  @id:coworker.providers.rejected-key @reference-fixture @mutates-target
  @req:coworker.provider.rejected-key @req:coworker.provider-auth-result.result-of
  Scenario: A rejected API key is a result with ok false, not an error
    coworker-v3.md §provider_auth_result: ok reports the outcome.
    Interpretation: a well-formed request whose key the provider rejects is
    answered with provider_auth_result {ok: false}. The reference server
    rejects keys shorter than 8 characters (a fixture: the spec does not say
    a server verifies keys; the real agent-coworker saves them unverified).

    When the client sends:
      """
      {"type": "provider_auth_set_api_key", "sessionId": "{sid}", "provider": "anthropic", "methodId": "api_key", "apiKey": "short"}
      """
    Then the client receives "provider_auth_result"
    And its "ok" is false
    And its "message" is a string
    And the client receives no "error" within 300ms

  @id:coworker.providers.authorize-api-key-method @scripted
  @req:coworker.provider.authorize-non-oauth @req:coworker.error-reference.provider-error @req:coworker.error-reference.source-provider
  Scenario: provider_auth_authorize on an API-key method is provider_error
    coworker-v3.md §provider_auth_authorize: for "an OAuth-capable method";
    §Error Reference: provider_error, "Provider auth or model operation
    failure". Interpretation: authorizing a method that is not OAuth fails,
    and the refusal says so (provider_error is also the code of a provider
    that fails for its own reasons, a missing key among them).

    When the client sends:
      """
      {"type": "provider_auth_authorize", "sessionId": "{sid}", "provider": "openai", "methodId": "api_key"}
      """
    Then the client receives "error"
    And its "code" is "provider_error"
    And its "source" is "provider"
    And the refusal names one of "oauth", "auth method", "methodId", "method id", "does not support authorization"
    And the client receives no "provider_auth_challenge" within 300ms

  @id:coworker.providers.unknown-provider
  @req:coworker.provider.unknown-name @req:coworker.type.provider-name @req:coworker.error-reference.validation-failed
  Scenario: A provider that is not a ProviderName is refused
    coworker-v3.md §Type Definitions: ProviderName is one of google, openai,
    anthropic, codex-cli, claude-code; §Error Reference: validation_failed
    "Required field missing/invalid". Interpretation: another provider name
    is invalid (provider_error is accepted too); neither code is only about
    this, so the refusal must name the provider.

    When the client sends:
      """
      {"type": "provider_auth_authorize", "sessionId": "{sid}", "provider": "acme-ai", "methodId": "oauth_cli"}
      """
    Then the client receives "error"
    And its "code" is one of ["validation_failed", "provider_error"]
    And the refusal names one of "acme-ai", "invalid provider", "unknown provider", "unsupported provider", "provider must", "provider is not"
    And the client receives no "provider_auth_challenge" within 300ms
