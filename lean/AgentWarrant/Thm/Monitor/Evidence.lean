import AgentWarrant.Spec.Monitor.Evidence
import AgentWarrant.Thm.Monitor.Full.Issuance
/-! What an accepted approval means (`evidenceAccepted`): the call has exactly one effect unit, whose
action and string resource the approval names; the approval's approver key is in the registry and
unrevoked; its Ed25519 signature, decoded from base64 and checked by `ed25519Verify` (computed in Lean,
`EvidenceCrypto.lean`), verifies under that key over the signed form of the RFC 8785 bytes of its payload
(those bytes themselves up to 4,096 bytes); its lifetime is in (0, 24 h], it was issued at most 60 s after
the clock and expires after it; its scope names the resource, or bounds the amount, which is non-negative
and within the bound; its nonce was not in the store, and the store after the check is the store with
that nonce added. A refusal leaves the store unchanged (`evidenceStore`).

Over runs whose issuances the check gates (`runGated`): the nonce store only grows, so an approval's
nonce, once accepted, is never accepted again in the rest of the run (`gatedSingleUse`); a permit is
issued only on accepted evidence (`gatedIssueNeedsEvidence`); and the monitor's state of a gated run is
the state of the `runEvents` run of its calls and accepted issuances (`runGatedProj`), so the single use
of permits (`permitSingleUse`) holds on gated runs too.

What this does not state: anything about Ed25519 or SHA-512 beyond their computation (their agreement
with RFC 8032 and FIPS 180-4 is checked on the standards' test vectors and against the Python verifier
by the DRT, not proved), and anything about hybrid approver keys, which the model does not represent. -/
namespace AgentWarrant.Evidence
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full

theorem evidenceAcceptedParts (reg : List KeyEntry) (spent spent' : List String) (q : Request)
    (h : evidenceCheck reg spent q = (EvVerdict.accepted, spent')) :
    ∃ action resource amount a m, inDomain q = true ∧ callBinding q = Except.ok (action, resource, amount) ∧
      loadApproval q.approval = Except.ok a ∧ canonBytes (payloadOf q.approval) = some m ∧
      verifyApproval reg a m action resource amount q.now = none ∧
      spent.contains (nonceKey a) = false ∧ spent' = nonceKey a :: spent := by
  cases hd : inDomain q with
  | false => simp [evidenceCheck, hd] at h
  | true =>
  cases hb : callBinding q with
  | error r => simp [evidenceCheck, hd, hb] at h
  | ok b =>
  match b, hb with
  | (action, resource, amount), hb =>
  cases hl : loadApproval q.approval with
  | error e => simp [evidenceCheck, hd, hb, hl] at h
  | ok a =>
  cases hc : canonBytes (payloadOf q.approval) with
  | none => simp [evidenceCheck, hd, hb, hl, hc] at h
  | some m =>
  cases hv : verifyApproval reg a m action resource amount q.now with
  | some r => simp [evidenceCheck, hd, hb, hl, hc, hv] at h
  | none =>
  cases hs : spent.contains (nonceKey a) with
  | true => simp [evidenceCheck, hd, hb, hl, hc, hv, hs] at h
  | false =>
    simp [evidenceCheck, hd, hb, hl, hc, hv, hs] at h
    refine ⟨action, resource, amount, a, m, ?_, ?_, ?_, ?_, ?_, ?_, h.symm⟩ <;> first | rfl | assumption

theorem verifyApprovalOk (reg : List KeyEntry) (a : Approval) (m : Bytes) (action resource : String)
    (amount : Option JsonNumber) (now : Int) (h : verifyApproval reg a m action resource amount now = none) :
    ∃ k, lookupKey reg a.approverId a.keyId = some k ∧ k.revoked = false ∧ sigDefect k.publicKey m a = none ∧
      timeDefect a now = none ∧ bindingDefect a action resource amount = none := by
  cases hk : lookupKey reg a.approverId a.keyId with
  | none => simp [verifyApproval, hk] at h
  | some k =>
  cases hr : k.revoked with
  | true => simp [verifyApproval, hk, hr] at h
  | false =>
  cases hs : sigDefect k.publicKey m a with
  | some r => simp [verifyApproval, hk, hr, hs] at h
  | none =>
  cases ht : timeDefect a now with
  | some r => simp [verifyApproval, hk, hr, hs, ht] at h
  | none =>
    simp [verifyApproval, hk, hr, hs, ht] at h
    refine ⟨k, ?_, ?_, ?_, ?_, h⟩ <;> first | rfl | assumption

theorem timeOk (a : Approval) (now : Int) (h : timeDefect a now = none) :
    ¬ (a.expiresAt - a.issuedAt ≤ 0) ∧ ¬ (a.expiresAt - a.issuedAt > maxTtl) ∧
    ¬ (a.issuedAt > now + clockSkew) ∧ ¬ (now ≥ a.expiresAt) := by
  cases Decidable.em (a.expiresAt - a.issuedAt ≤ 0) with
  | inl h1 => simp [timeDefect, h1] at h
  | inr h1 =>
  cases Decidable.em (a.expiresAt - a.issuedAt > maxTtl) with
  | inl h2 => simp [timeDefect, h1, h2] at h
  | inr h2 =>
  cases Decidable.em (a.issuedAt > now + clockSkew) with
  | inl h3 => simp [timeDefect, h1, h2, h3] at h
  | inr h3 =>
  cases Decidable.em (now ≥ a.expiresAt) with
  | inl h4 => simp [timeDefect, h1, h2, h3, h4] at h
  | inr h4 => exact ⟨h1, h2, h3, h4⟩

theorem sigOk (pub m : Bytes) (a : Approval) (h : sigDefect pub m a = none) :
    ¬ (a.algorithm = hybrid) ∧ ∃ sig, b64Decode a.sigValue = some sig ∧ List.length sig = 64 ∧
      ed25519Verify pub (signedForm m) sig = true := by
  cases Decidable.em (m.head? = some 255) with
  | inl h0 => simp [sigDefect, h0] at h
  | inr h0 =>
  cases he : b64Decode a.sigValue with
  | none => simp [sigDefect, h0, he] at h
  | some ed =>
  cases hp : pqBytes a with
  | none => simp [sigDefect, h0, he, hp] at h
  | some pq =>
  cases Decidable.em (List.length ed = 64) with
  | inr h1 => simp [sigDefect, h0, he, hp, h1] at h
  | inl h1 =>
  cases Decidable.em (a.algorithm = hybrid) with
  | inl h2 =>
    cases Decidable.em (List.length pq = 3309) with
    | inl h3 => simp [sigDefect, h0, he, hp, h1, h2, h3] at h
    | inr h3 => simp [sigDefect, h0, he, hp, h1, h2, h3] at h
  | inr h2 =>
    cases hv : ed25519Verify pub (signedForm m) ed with
    | true => exact ⟨h2, ed, rfl, h1, hv⟩
    | false =>
      cases h4 : ed25519Verify pub (otherForm m) ed <;>
      cases h5 : ed25519Verify pub (hybridLabel ++ signedForm m) ed <;>
      simp [sigDefect, h0, he, hp, h1, h2, hv, h4, h5] at h

theorem bindingOk (a : Approval) (action resource : String) (amount : Option JsonNumber)
    (h : bindingDefect a action resource amount = none) : a.capability = action ∧ a.resourceId = resource := by
  cases Decidable.em (a.capability = action) with
  | inr h1 => simp [bindingDefect, h1] at h
  | inl h1 =>
  cases Decidable.em (a.resourceId = resource) with
  | inl h2 => exact ⟨h1, h2⟩
  | inr h2 => simp [bindingDefect, h1, h2] at h

/-- The scope an accepted approval carries: without an amount, it names the resource; with one, the
amount is non-negative and at most the scope's bound (exact decimal comparison). -/
theorem bindingScope (a : Approval) (action resource : String) (amount : Option JsonNumber)
    (h : bindingDefect a action resource amount = none) :
    (amount = none → a.scopeField = "resourceId" ∧ a.scopeValue = Json.str resource) ∧
    (∀ x, amount = some x → a.scopeField = "value" ∧ ¬ (x.mantissa < 0) ∧
      ∃ v, a.scopeValue = Json.num v ∧ numLt v x = false) := by
  have ⟨h1, h2⟩ := bindingOk a action resource amount h
  cases amount with
  | none =>
    refine ⟨fun _ => ?_, fun x e => nomatch e⟩
    cases Decidable.em (a.scopeField = "resourceId") with
    | inr hf => simp [bindingDefect, h1, h2, hf] at h
    | inl hf =>
      cases hv : a.scopeValue with
      | str v =>
        cases Decidable.em (v = resource) with
        | inl e => rw [e]; exact ⟨hf, rfl⟩
        | inr e => simp [bindingDefect, h1, h2, hf, hv, e] at h
      | null => simp [bindingDefect, h1, h2, hf, hv] at h
      | bool _ => simp [bindingDefect, h1, h2, hf, hv] at h
      | num _ => simp [bindingDefect, h1, h2, hf, hv] at h
      | arr _ => simp [bindingDefect, h1, h2, hf, hv] at h
      | obj _ => simp [bindingDefect, h1, h2, hf, hv] at h
  | some y =>
    refine ⟨fun e => nomatch e, fun x e => ?_⟩
    cases e
    cases Decidable.em (a.scopeField = "value") with
    | inr hf => simp [bindingDefect, h1, h2, hf] at h
    | inl hf =>
      cases Decidable.em (y.mantissa < 0) with
      | inl hn => simp [bindingDefect, h1, h2, hf, hn] at h
      | inr hn =>
        cases hv : a.scopeValue with
        | num v =>
          cases hl : numLt v y with
          | false => exact ⟨hf, hn, v, rfl, hl⟩
          | true => simp [bindingDefect, h1, h2, hf, hn, hv, hl] at h
        | null => simp [bindingDefect, h1, h2, hf, hn, hv] at h
        | bool _ => simp [bindingDefect, h1, h2, hf, hn, hv] at h
        | str _ => simp [bindingDefect, h1, h2, hf, hn, hv] at h
        | arr _ => simp [bindingDefect, h1, h2, hf, hn, hv] at h
        | obj _ => simp [bindingDefect, h1, h2, hf, hn, hv] at h

/-- The approval binds exactly the call's one effect unit. -/
theorem callBindingOk (q : Request) (action resource : String) (amount : Option JsonNumber)
    (h : callBinding q = Except.ok (action, resource, amount)) : q.effects = [(action, Json.str resource)] := by
  revert h
  cases he : q.effects with
  | nil => intro h; simp [callBinding, he] at h
  | cons e rest =>
    cases rest with
    | cons e2 rest2 => intro h; simp [callBinding, he] at h
    | nil =>
      match e with
      | (act, res) =>
      cases res with
      | str r =>
        intro h
        cases hn : q.amountArg with
        | none => simp [callBinding, he, hn] at h; rw [h.1, h.2.1]
        | some name =>
          cases hv : q.args.lookup name with
          | none => simp [callBinding, he, hn, hv] at h
          | some v =>
            cases v with
            | num x => simp [callBinding, he, hn, hv] at h; rw [h.1, h.2.1]
            | null => simp [callBinding, he, hn, hv] at h
            | bool _ => simp [callBinding, he, hn, hv] at h
            | str _ => simp [callBinding, he, hn, hv] at h
            | arr _ => simp [callBinding, he, hn, hv] at h
            | obj _ => simp [callBinding, he, hn, hv] at h
      | null => intro h; simp [callBinding, he] at h
      | bool _ => intro h; simp [callBinding, he] at h
      | num _ => intro h; simp [callBinding, he] at h
      | arr _ => intro h; simp [callBinding, he] at h
      | obj _ => intro h; simp [callBinding, he] at h

theorem lookupKeyOk (aid kid : String) : ∀ (reg : List KeyEntry) (k : KeyEntry), lookupKey reg aid kid = some k →
    k ∈ reg ∧ k.approverId = aid ∧ k.keyId = kid
  | [], k, h => by simp [lookupKey, List.find?] at h
  | e :: rest, k, h => by
    cases he : (e.approverId == aid && e.keyId == kid) with
    | true =>
      have e1 : lookupKey (e :: rest) aid kid = some e := by simp [lookupKey, List.find?, he]
      rw [e1] at h
      cases h
      cases ha : e.approverId == aid with
      | false => rw [ha] at he; cases he
      | true =>
        cases hk : e.keyId == kid with
        | false => rw [ha, hk] at he; cases he
        | true => exact ⟨Mem.head _, ofDecideEqTrue ha, ofDecideEqTrue hk⟩
    | false =>
      have e1 : lookupKey (e :: rest) aid kid = lookupKey rest aid kid := by simp [lookupKey, List.find?, he]
      rw [e1] at h
      have ⟨m, ha, hk⟩ := lookupKeyOk aid kid rest k h
      exact ⟨Mem.tail _ m, ha, hk⟩

/-- An accepted approval: the call's one effect unit is the approval's action and resource; a registered,
unrevoked key of the named approver verifies the classical Ed25519 signature over the signed form of the
canonical bytes of the payload; the approval is within its window at the clock's reading; its scope
binds the resource or bounds the amount; its nonce was unused and the store after the check records it. -/
theorem evidenceAccepted (reg : List KeyEntry) (spent spent' : List String) (q : Request)
    (h : evidenceCheck reg spent q = (EvVerdict.accepted, spent')) :
    ∃ (action resource : String) (amount : Option JsonNumber) (a : Approval) (m : Bytes) (k : KeyEntry) (sig : Bytes),
      q.effects = [(action, Json.str resource)] ∧
      loadApproval q.approval = Except.ok a ∧ canonBytes (payloadOf q.approval) = some m ∧
      k ∈ reg ∧ k.approverId = a.approverId ∧ k.keyId = a.keyId ∧ k.revoked = false ∧
      ¬ (a.algorithm = hybrid) ∧ b64Decode a.sigValue = some sig ∧
      ed25519Verify k.publicKey (signedForm m) sig = true ∧
      ¬ (a.expiresAt - a.issuedAt ≤ 0) ∧ ¬ (a.expiresAt - a.issuedAt > maxTtl) ∧
      ¬ (a.issuedAt > q.now + clockSkew) ∧ ¬ (q.now ≥ a.expiresAt) ∧
      a.capability = action ∧ a.resourceId = resource ∧
      (amount = none → a.scopeField = "resourceId" ∧ a.scopeValue = Json.str resource) ∧
      (∀ x, amount = some x → a.scopeField = "value" ∧ ¬ (x.mantissa < 0) ∧
        ∃ v, a.scopeValue = Json.num v ∧ numLt v x = false) ∧
      spent.contains (nonceKey a) = false ∧ spent' = nonceKey a :: spent := by
  have ⟨action, resource, amount, a, m, _, hb, hl, hc, hv, hs, hsp⟩ := evidenceAcceptedParts reg spent spent' q h
  have ⟨k, hk, hr, hsig, ht, hbind⟩ := verifyApprovalOk reg a m action resource amount q.now hv
  have ⟨mem, ha, hki⟩ := lookupKeyOk a.approverId a.keyId reg k hk
  have ⟨hh, sig, hsv, _, hver⟩ := sigOk k.publicKey m a hsig
  have ⟨t1, t2, t3, t4⟩ := timeOk a q.now ht
  have ⟨b1, b2⟩ := bindingOk a action resource amount hbind
  exact ⟨action, resource, amount, a, m, k, sig, callBindingOk q action resource amount hb, hl, hc, mem, ha, hki, hr,
    hh, hsv, hver, t1, t2, t3, t4, b1, b2, (bindingScope a action resource amount hbind).1,
    (bindingScope a action resource amount hbind).2, hs, hsp⟩

/-- The signed form of a payload of at most 4,096 bytes is its canonical bytes themselves. -/
theorem signedFormShort (m : Bytes) (h : List.length m ≤ kmsLimit) : signedForm m = m := by
  simp [signedForm, h]

/-- The check leaves the store as it was, or accepts and adds one nonce. -/
theorem evidenceStore (reg : List KeyEntry) (spent : List String) (q : Request) :
    (evidenceCheck reg spent q).2 = spent ∨
    ∃ n, evidenceCheck reg spent q = (EvVerdict.accepted, n :: spent) := by
  cases he : evidenceCheck reg spent q with
  | mk v sp =>
    cases v with
    | accepted =>
      have ⟨_, _, _, a, _, _, _, _, _, _, _, hsp⟩ := evidenceAcceptedParts reg spent sp q he
      exact Or.inr ⟨nonceKey a, by rw [hsp]⟩
    | refused r =>
      apply Or.inl
      show sp = spent
      cases hd : inDomain q with
      | false => (simp [evidenceCheck, hd] at he) <;> exact he.2.symm
      | true =>
      cases hb : callBinding q with
      | error r => (simp [evidenceCheck, hd, hb] at he) <;> exact he.2.symm
      | ok b =>
      match b, hb with
      | (action, resource, amount), hb =>
      cases hl : loadApproval q.approval with
      | error e => (simp [evidenceCheck, hd, hb, hl] at he) <;> exact he.2.symm
      | ok a =>
      cases hc : canonBytes (payloadOf q.approval) with
      | none => (simp [evidenceCheck, hd, hb, hl, hc] at he) <;> exact he.2.symm
      | some m =>
      cases hv : verifyApproval reg a m action resource amount q.now with
      | some r => (simp [evidenceCheck, hd, hb, hl, hc, hv] at he) <;> exact he.2.symm
      | none =>
      cases hs : spent.contains (nonceKey a) with
      | true => (simp [evidenceCheck, hd, hb, hl, hc, hv, hs] at he) <;> exact he.2.symm
      | false => simp [evidenceCheck, hd, hb, hl, hc, hv, hs] at he
    | unsupported =>
      apply Or.inl
      show sp = spent
      cases hd : inDomain q with
      | false => (simp [evidenceCheck, hd] at he) <;> exact he.symm
      | true =>
      cases hb : callBinding q with
      | error r => simp [evidenceCheck, hd, hb] at he
      | ok b =>
      match b, hb with
      | (action, resource, amount), hb =>
      cases hl : loadApproval q.approval with
      | error e => simp [evidenceCheck, hd, hb, hl] at he
      | ok a =>
      cases hc : canonBytes (payloadOf q.approval) with
      | none => simp [evidenceCheck, hd, hb, hl, hc] at he
      | some m =>
      cases hv : verifyApproval reg a m action resource amount q.now with
      | some r => simp [evidenceCheck, hd, hb, hl, hc, hv] at he
      | none =>
      cases hs : spent.contains (nonceKey a) with
      | true => simp [evidenceCheck, hd, hb, hl, hc, hv, hs] at he
      | false => simp [evidenceCheck, hd, hb, hl, hc, hv, hs] at he

theorem containsCons (n x : String) (l : List String) (h : l.contains n = true) : (x :: l).contains n = true := by
  cases e : n == x with
  | true => simp [List.contains, List.elem, e]
  | false => simp [List.contains, List.elem, e]; exact h

theorem beqSelf (n : String) : (n == n) = true := decideEqTrue rfl

theorem containsHead (n : String) (l : List String) : (n :: l).contains n = true := by
  simp [List.contains, List.elem, beqSelf]

theorem gatedStepStore (p : Policy) (reg : List KeyEntry) (st : State × List String) (e : GatedEvent) (n : String)
    (h : st.2.contains n = true) : (gatedStep p reg st e).2.contains n = true := by
  cases e with
  | call c o => exact h
  | request t i q =>
    cases he : evidenceCheck reg st.2 q with
    | mk v sp =>
      have hsp : sp.contains n = true := by
        cases evidenceStore reg st.2 q with
        | inl e2 =>
          rw [he] at e2
          have e3 : sp = st.2 := e2
          rw [e3]; exact h
        | inr ex =>
          have ⟨x, e2⟩ := ex
          rw [he] at e2
          cases e2
          exact containsCons n x st.2 h
      cases v <;> simp [gatedStep, he] <;> exact hsp

/-- The nonce store of a gated run only grows. -/
theorem runGatedStore (p : Policy) (reg : List KeyEntry) (n : String) :
    ∀ (es : List GatedEvent) (st : State × List String), st.2.contains n = true →
      (runGated p reg st es).2.contains n = true
  | [], st, h => h
  | e :: es, st, h => runGatedStore p reg n es _ (gatedStepStore p reg st e n h)

/-- Single use over gated runs: an approval accepted at some point of a run, then any events, and an
approval accepted later have different nonces (`approverId/nonce`). -/
theorem gatedSingleUse (p : Policy) (reg : List KeyEntry) (st : State × List String) (pre : List GatedEvent)
    (t : String) (i : List (String × Ident)) (q : Request) (sp : List String)
    (h1 : evidenceCheck reg (runGated p reg st pre).2 q = (EvVerdict.accepted, sp))
    (mid : List GatedEvent) (q' : Request) (sp' : List String)
    (h2 : evidenceCheck reg (runGated p reg (gatedStep p reg (runGated p reg st pre) (GatedEvent.request t i q)) mid).2 q'
      = (EvVerdict.accepted, sp'))
    (a a' : Approval) (ha : loadApproval q.approval = Except.ok a) (ha' : loadApproval q'.approval = Except.ok a') :
    nonceKey a ≠ nonceKey a' := by
  have ⟨_, _, _, b, _, _, _, hb, _, _, _, hsp⟩ := evidenceAcceptedParts reg _ sp q h1
  rw [ha] at hb
  cases hb
  have ⟨_, _, _, b', _, _, _, hb', _, _, hfresh, _⟩ := evidenceAcceptedParts reg _ sp' q' h2
  rw [ha'] at hb'
  cases hb'
  have step : (gatedStep p reg (runGated p reg st pre) (GatedEvent.request t i q)).2 = sp := by
    simp [gatedStep, h1]
  have hin : (gatedStep p reg (runGated p reg st pre) (GatedEvent.request t i q)).2.contains (nonceKey a) = true := by
    rw [step, hsp]; exact containsHead _ _
  have hlater := runGatedStore p reg (nonceKey a) mid _ hin
  intro e
  rw [e] at hlater
  rw [hlater] at hfresh
  cases hfresh

/-- A gated request issues a permit only when its evidence is accepted. -/
theorem gatedIssueNeedsEvidence (p : Policy) (reg : List KeyEntry) (st : State × List String) (t : String)
    (i : List (String × Ident)) (q : Request) :
    (gatedStep p reg st (GatedEvent.request t i q)).1 = st.1 ∨
    ((evidenceCheck reg st.2 q).1 = EvVerdict.accepted ∧ (gatedStep p reg st (GatedEvent.request t i q)).1 = issuePermit st.1 t i) := by
  cases he : evidenceCheck reg st.2 q with
  | mk v sp =>
    cases v with
    | accepted => exact Or.inr ⟨rfl, by simp [gatedStep, he]⟩
    | refused r => exact Or.inl (by simp [gatedStep, he])
    | unsupported => exact Or.inl (by simp [gatedStep, he])

/-- A gated run's monitor state is that of `runEvents` on its calls and accepted issuances, so every
theorem about `runEvents` (the single use of permits, `permitSingleUse`) holds of gated runs. -/
theorem runGatedProj (p : Policy) (reg : List KeyEntry) :
    ∀ (es : List GatedEvent) (st : State × List String), (runGated p reg st es).1 = runEvents p st.1 (gatedTrace p reg st es)
  | [], st => rfl
  | GatedEvent.call c o :: es, st => runGatedProj p reg es ((stepFull p st.1 c o).2, st.2)
  | GatedEvent.request t i q :: es, st => by
    cases he : evidenceCheck reg st.2 q with
    | mk v sp =>
      cases v with
      | accepted =>
        have e1 : runGated p reg st (GatedEvent.request t i q :: es) = runGated p reg (issuePermit st.1 t i, sp) es := by
          simp [runGated, gatedStep, he]
        have e2 : gatedTrace p reg st (GatedEvent.request t i q :: es) =
            Event.issue t i :: gatedTrace p reg (issuePermit st.1 t i, sp) es := by simp [gatedTrace, he]
        rw [e1, e2]
        exact runGatedProj p reg es (issuePermit st.1 t i, sp)
      | refused r =>
        have e1 : runGated p reg st (GatedEvent.request t i q :: es) = runGated p reg (st.1, sp) es := by
          simp [runGated, gatedStep, he]
        have e2 : gatedTrace p reg st (GatedEvent.request t i q :: es) = gatedTrace p reg (st.1, sp) es := by
          simp [gatedTrace, he]
        rw [e1, e2]
        exact runGatedProj p reg es (st.1, sp)
      | unsupported =>
        have e1 : runGated p reg st (GatedEvent.request t i q :: es) = runGated p reg (st.1, sp) es := by
          simp [runGated, gatedStep, he]
        have e2 : gatedTrace p reg st (GatedEvent.request t i q :: es) = gatedTrace p reg (st.1, sp) es := by
          simp [gatedTrace, he]
        rw [e1, e2]
        exact runGatedProj p reg es (st.1, sp)

end AgentWarrant.Evidence
