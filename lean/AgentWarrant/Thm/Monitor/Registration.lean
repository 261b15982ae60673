import AgentWarrant.Spec.Monitor.Registration
import AgentWarrant.Thm.Monitor.Full.SlotMeaning
import AgentWarrant.Spec.Revision.ListLemmas
/-! What the registration check means (Agenra Section 6.1: "Registration has unique names, valid
references and labels, and satisfies Section 5's tool/resolver constraints"), stated with list
membership and quantifiers (`RegistrationWF`), and `registrationOkIff`: the check decides it for every
policy. The meaning names a declaration by its name ("the tool named `n`": some tool of that name,
which the unique-names clause makes the only one), where the check looks the first one up. What the
Lean policy does not carry is outside both (`Spec/Monitor/Registration.lean`). -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant

-- lists -------------------------------------------------------------------------------------------

/-- No element occurs twice. -/
inductive Distinct {α : Type} : List α → Prop
  | nil : Distinct []
  | cons {x : α} {l : List α} : ¬ x ∈ l → Distinct l → Distinct (x :: l)

theorem andIff : ∀ {a b : Bool}, (a && b) = true ↔ a = true ∧ b = true
  | true, true => Iff.intro (fun _ => ⟨rfl, rfl⟩) (fun _ => rfl)
  | true, false => Iff.intro (fun h => by cases h) (fun h => by cases h.2)
  | false, true => Iff.intro (fun h => by cases h) (fun h => by cases h.1)
  | false, false => Iff.intro (fun h => by cases h) (fun h => by cases h.1)

theorem allIff {α : Type} (f : α → Bool) : ∀ (l : List α), List.all l f = true ↔ ∀ x, x ∈ l → f x = true
  | [] => ⟨fun _ _ h => nomatch h, fun _ => rfl⟩
  | a :: l => by
    have e : List.all (a :: l) f = (f a && List.all l f) := rfl
    rw [e, andIff, allIff f l]
    refine Iff.intro (fun ⟨ha, hl⟩ x hx => ?_) (fun h => ⟨h a (Mem.head _), fun x hx => h x (Mem.tail _ hx)⟩)
    cases hx with
    | head _ => exact ha
    | tail _ t => exact hl x t

theorem memSIff (x : String) : ∀ (l : List String), memS x l = true ↔ x ∈ l
  | [] => Iff.intro (fun h => by cases h) (fun h => nomatch h)
  | y :: l => by
    rw [memSCons]
    constructor
    · intro h
      cases hy : (y == x) with
      | true => rw [strEqOfBeq hy]; exact Mem.head _
      | false =>
        rw [hy] at h
        exact Mem.tail _ ((memSIff x l).1 h)
    · intro h
      cases h with
      | head _ => rw [strBeqSelf]; rfl
      | tail _ t => rw [(memSIff x l).2 t]; cases (y == x) <;> rfl

theorem notIff {b : Bool} : (!b) = true ↔ b = false := by
  cases b with
  | true => exact Iff.intro (fun h => by cases h) (fun h => by cases h)
  | false => exact Iff.intro (fun _ => rfl) (fun _ => rfl)

theorem falseIffNot {b : Bool} {P : Prop} (h : b = true ↔ P) : b = false ↔ ¬ P := by
  cases b with
  | true => exact Iff.intro (fun e => by cases e) (fun hn => absurd (h.1 rfl) hn)
  | false => exact Iff.intro (fun _ hp => by cases h.2 hp) (fun _ => rfl)

theorem uniqSIff : ∀ (l : List String), uniqS l = true ↔ Distinct l
  | [] => ⟨fun _ => Distinct.nil, fun _ => rfl⟩
  | x :: l => by
    have e : uniqS (x :: l) = (!memS x l && uniqS l) := rfl
    rw [e, andIff, notIff, falseIffNot (memSIff x l), uniqSIff l]
    exact Iff.intro (fun ⟨a, b⟩ => Distinct.cons a b) (fun h => by cases h with | cons a b => exact ⟨a, b⟩)

theorem subSIff (xs ys : List String) : subS xs ys = true ↔ ∀ x, x ∈ xs → x ∈ ys := by
  show List.all xs (fun x => memS x ys) = true ↔ _
  rw [allIff]
  exact ⟨fun h x hx => (memSIff x ys).1 (h x hx), fun h x hx => (memSIff x ys).2 (h x hx)⟩

theorem nonEmptyIff {α : Type} (l : List α) : (!l.isEmpty) = true ↔ l ≠ [] := by
  cases l with
  | nil => exact Iff.intro (fun h => by cases h) (fun h => absurd rfl h)
  | cons a l => exact Iff.intro (fun _ h => List.noConfusion h) (fun _ => rfl)

theorem memPairIff (a : String × String) : ∀ (l : List (String × String)), memPair a l = true ↔ a ∈ l
  | [] => Iff.intro (fun h => by cases h) (fun h => nomatch h)
  | b :: l => by
    have e : memPair a (b :: l) = ((b.1 == a.1 && b.2 == a.2) || memPair a l) := rfl
    rw [e]
    constructor
    · intro h
      cases hb : (b.1 == a.1 && b.2 == a.2) with
      | true =>
        have ⟨h1, h2⟩ := andIff.1 hb
        have eb : b = a := by
          cases a with
          | mk a1 a2 => cases b with
            | mk b1 b2 =>
              have e1 : b1 = a1 := strEqOfBeq h1
              have e2 : b2 = a2 := strEqOfBeq h2
              rw [e1, e2]
        rw [← eb]; exact Mem.head _
      | false => rw [hb] at h; exact Mem.tail _ ((memPairIff a l).1 h)
    · intro h
      cases h with
      | head _ => rw [strBeqSelf, strBeqSelf]; rfl
      | tail _ t => rw [(memPairIff a l).2 t]; cases (b.1 == a.1 && b.2 == a.2) <;> rfl

theorem uniqPairsIff : ∀ (l : List (String × String)), uniqPairs l = true ↔ Distinct l
  | [] => ⟨fun _ => Distinct.nil, fun _ => rfl⟩
  | x :: l => by
    have e : uniqPairs (x :: l) = (!memPair x l && uniqPairs l) := rfl
    rw [e, andIff, notIff, falseIffNot (memPairIff x l), uniqPairsIff l]
    exact Iff.intro (fun ⟨a, b⟩ => Distinct.cons a b) (fun h => by cases h with | cons a b => exact ⟨a, b⟩)

/-- Looking a declaration up by name: with distinct names, the first one of that name is the one. -/
theorem findNameSome {α : Type} (name : α → String) (n : String) : ∀ (l : List α), Distinct (l.map name) →
    ∀ t, (List.find? (fun x => name x == n) l = some t ↔ t ∈ l ∧ name t = n)
  | [], _, t => Iff.intro (fun h => by cases h) (fun h => nomatch h.1)
  | a :: l, hd, t => by
    cases hd with
    | cons hna hdl =>
      rw [findCons]
      cases ha : (name a == n) with
      | true =>
        have ea : name a = n := strEqOfBeq ha
        constructor
        · intro h
          have et : a = t := Option.some.inj h
          rw [← et]; exact ⟨Mem.head _, ea⟩
        · intro ⟨hm, hn⟩
          cases hm with
          | head _ => rfl
          | tail _ tl => exact absurd (by rw [ea, ← hn]; exact memMapOf name tl) hna
      | false =>
        have ne : name a ≠ n := fun e => by rw [e, strBeqSelf] at ha; cases ha
        show List.find? _ l = some t ↔ _
        rw [findNameSome name n l hdl t]
        constructor
        · intro ⟨hm, hn⟩; exact ⟨Mem.tail _ hm, hn⟩
        · intro ⟨hm, hn⟩
          cases hm with
          | head _ => exact absurd hn ne
          | tail _ tl => exact ⟨tl, hn⟩

theorem findNameNone {α : Type} (name : α → String) (n : String) : ∀ (l : List α),
    List.find? (fun x => name x == n) l = none ↔ ∀ t, t ∈ l → name t ≠ n
  | [] => ⟨fun _ _ h => nomatch h, fun _ => rfl⟩
  | a :: l => by
    rw [findCons]
    cases ha : (name a == n) with
    | true => exact Iff.intro (fun h => by cases h) (fun h => absurd (strEqOfBeq ha) (h a (Mem.head _)))
    | false =>
      show List.find? _ l = none ↔ _
      rw [findNameNone name n l]
      have ne : name a ≠ n := fun e => by rw [e, strBeqSelf] at ha; cases ha
      refine Iff.intro (fun h t ht => ?_) (fun h t ht => h t (Mem.tail _ ht))
      cases ht with
      | head _ => exact ne
      | tail _ tl => exact h t tl

theorem memFoldArgs (a : String) : ∀ (ts : List Tool), a ∈ ts.foldr (fun t acc => t.args ++ acc) [] ↔ ∃ t, t ∈ ts ∧ a ∈ t.args
  | [] => Iff.intro (fun h => nomatch h) (fun ⟨_, h, _⟩ => nomatch h)
  | t :: ts => by
    show a ∈ t.args ++ List.foldr (fun (t : Tool) (acc : List String) => t.args ++ acc) [] ts ↔ _
    constructor
    · intro h
      cases memAppE h with
      | inl h1 => exact ⟨t, Mem.head _, h1⟩
      | inr h2 =>
        have ⟨u, hu, ha⟩ := (memFoldArgs a ts).1 h2
        exact ⟨u, Mem.tail _ hu, ha⟩
    · intro ⟨u, hu, ha⟩
      cases hu with
      | head _ => exact memAppL _ ha
      | tail _ tl => exact memAppR _ t.args ((memFoldArgs a ts).2 ⟨u, tl, ha⟩)

-- the meaning ---------------------------------------------------------------------------------------

def EdgeWF (p : Policy) (e : Edge) : Prop :=
  e.endpoints ≠ [] ∧ (∀ ab, ab ∈ e.endpoints → ab.1 ∈ p.nodeNames ∧ ab.2 ∈ p.nodeNames) ∧ Distinct e.endpoints

def ToolWF (p : Policy) (t : Tool) : Prop :=
  t.operation ∈ p.edgeNames ∧ t.source ∈ p.nodeNames ∧ t.destination ∈ p.nodeNames ∧
  (∀ e, e ∈ p.edges → e.name = t.operation → (t.source, t.destination) ∈ e.endpoints) ∧
  (∀ a, a ∈ t.required → a ∈ t.args) ∧ t.effects ≠ [] ∧
  (∀ d, d ∈ t.effects → (∀ a, (d.res = ResRef.arg a ∨ d.res = ResRef.listArg a) → a ∈ t.args) ∧
    ∀ v, d.res = ResRef.const v → resConstOk v = true)

def ResolverWF (p : Policy) (r : Resolver) : Prop :=
  ∃ t ks, t ∈ p.tools ∧ t.name = r.tool ∧ argNames r.args = some ks ∧
    (∀ k, k ∈ ks → k ∈ t.args) ∧ (∀ a, a ∈ t.required → a ∈ ks)

/-- An argument `via` can carry: the tool's of that name, or, when no tool has that name, some
tool's performing the edge. -/
def ViaArg (p : Policy) (via a : String) : Prop :=
  (∃ t, t ∈ p.tools ∧ t.name = via ∧ a ∈ t.args) ∨
  ((∀ t, t ∈ p.tools → t.name ≠ via) ∧ ∃ t, t ∈ p.tools ∧ t.operation = via ∧ a ∈ t.args)

def OriginWF (p : Policy) (o : Origin) : Prop :=
  o.via ∈ p.ops ∧ o.producer ∈ p.ops ∧ (∀ x, x ∈ o.preserving → x ∈ p.ops) ∧ ViaArg p o.via o.argument

def FlowWF (p : Policy) (f : XFlow) : Prop :=
  (f.operation = "*" ∨ f.operation ∈ p.edgeNames) ∧
  (∀ a, f.argument = some a → ∃ t, t ∈ p.tools ∧ t.name = f.destination ∧
      (a = "*" ∨ a ∈ t.args) ∧ (f.operation = "*" ∨ f.operation = t.operation)) ∧
  (f.argument = none → f.destination = "*" ∨ f.destination ∈ p.nodeNames)

def PatWF (p : Policy) (pat : Pat) : Prop := ∀ s, pat = Pat.slot s → s ∈ p.slots

def PredWF : Pred → Prop
  | Pred.eq path _ => path ≠ []
  | Pred.oneOf path vs => path ≠ [] ∧ vs ≠ []
  | Pred.range path lo hi => path ≠ [] ∧ (lo ≠ none ∨ hi ≠ none) ∧ ∀ l h, lo = some l → hi = some h → numLe l h = true

def GrantWF (p : Policy) (g : Grant) : Prop :=
  PatWF p g.pat ∧ (∀ q, q ∈ g.preds → PredWF q) ∧
  (g.allow = false → g.quota = some 1 ∧ g.requires = none ∧ g.permit = false)

def AudienceWF (p : Policy) (a : Audience) : Prop :=
  a.node ∈ p.nodeNames ∧ a.effects ≠ [] ∧ ∀ e, e ∈ a.effects → PatWF p e.pat

def HistoryWF (p : Policy) (h : History) : Prop := h.after ∈ p.ops ∧ h.require ∈ p.ops ∧ h.before ∈ p.ops

/-- A well-formed registration, on the policy the whole monitor reads. -/
structure RegistrationWF (p : Policy) : Prop where
  nodes : Distinct p.nodeNames
  edges : Distinct p.edgeNames
  agents : Distinct (p.agents.map (·.name))
  tools : Distinct p.toolNames
  origins : Distinct (p.origins.map (·.name))
  histories : Distinct (p.histories.map (·.name))
  slots : Distinct p.slots
  edgeWF : ∀ e, e ∈ p.edges → EdgeWF p e
  agentWF : ∀ a, a ∈ p.agents → ∀ o, o ∈ a.ops → o ∈ p.edgeNames
  toolWF : ∀ t, t ∈ p.tools → ToolWF p t
  resolverWF : ∀ r, r ∈ p.resolvers → ResolverWF p r
  originWF : ∀ o, o ∈ p.origins → OriginWF p o
  flowWF : ∀ f, f ∈ p.xflows → FlowWF p f
  audienceWF : ∀ a, a ∈ p.audiences → AudienceWF p a
  historyWF : ∀ h, h ∈ p.histories → HistoryWF p h
  userWF : ∀ g, g ∈ p.user → GrantWF p g
  appWF : ∀ g, g ∈ p.app → GrantWF p g

-- each check decides its clause -------------------------------------------------------------------

theorem orIff : ∀ {a b : Bool}, (a || b) = true ↔ a = true ∨ b = true
  | true, _ => Iff.intro (fun _ => Or.inl rfl) (fun _ => rfl)
  | false, true => Iff.intro (fun _ => Or.inr rfl) (fun _ => rfl)
  | false, false => Iff.intro (fun h => by cases h) (fun h => by cases h with | inl h => cases h | inr h => cases h)

theorem strBeqIff (a b : String) : (a == b) = true ↔ a = b :=
  Iff.intro strEqOfBeq (fun h => by rw [h]; exact strBeqSelf b)

theorem edgeOkIff (p : Policy) (e : Edge) : edgeOk p e = true ↔ EdgeWF p e := by
  have d : edgeOk p e = (!e.endpoints.isEmpty && (e.endpoints.all (fun ab => memS ab.1 p.nodeNames && memS ab.2 p.nodeNames)
    && uniqPairs e.endpoints)) := rfl
  rw [d, andIff, andIff, nonEmptyIff, allIff, uniqPairsIff]
  exact Iff.intro
    (fun ⟨a, b, c⟩ => ⟨a, fun x hx => ⟨(memSIff _ _).1 (andIff.1 (b x hx)).1, (memSIff _ _).1 (andIff.1 (b x hx)).2⟩, c⟩)
    (fun ⟨a, b, c⟩ => ⟨a, fun x hx => andIff.2 ⟨(memSIff _ _).2 (b x hx).1, (memSIff _ _).2 (b x hx).2⟩, c⟩)

theorem effArgOkIff (t : Tool) (d : EffDecl) :
    effArgOk t d = true ↔ (∀ a, (d.res = ResRef.arg a ∨ d.res = ResRef.listArg a) → a ∈ t.args) ∧
      ∀ v, d.res = ResRef.const v → resConstOk v = true := by
  cases d with
  | mk act res =>
    cases res with
    | const v =>
      show resConstOk v = true ↔ _
      exact Iff.intro
        (fun h => ⟨fun a ha => (by cases ha with | inl e => cases e | inr e => cases e),
          fun w e => by cases e; exact h⟩)
        (fun h => h.2 v rfl)
    | arg x =>
      show memS x t.args = true ↔ _
      rw [memSIff]
      exact Iff.intro
        (fun h => ⟨fun a ha => (by cases ha with | inl e => cases e; exact h | inr e => cases e),
          fun w e => by cases e⟩)
        (fun h => h.1 x (Or.inl rfl))
    | listArg x =>
      show memS x t.args = true ↔ _
      rw [memSIff]
      exact Iff.intro
        (fun h => ⟨fun a ha => (by cases ha with | inl e => cases e | inr e => cases e; exact h),
          fun w e => by cases e⟩)
        (fun h => h.1 x (Or.inr rfl))

/-- Two declarations of one name in a list of distinct names are the same one. -/
theorem sameName {α : Type} (name : α → String) {l : List α} (hd : Distinct (l.map name)) {x y : α}
    (hx : x ∈ l) (hy : y ∈ l) (e : name x = name y) : x = y := by
  have h1 := (findNameSome name (name y) l hd x).2 ⟨hx, e⟩
  have h2 := (findNameSome name (name y) l hd y).2 ⟨hy, rfl⟩
  rw [h1] at h2
  exact Option.some.inj h2

theorem endpointsOkIff (p : Policy) (hd : Distinct p.edgeNames) (t : Tool) :
    endpointsOk p t = true ↔ ∀ e, e ∈ p.edges → e.name = t.operation → (t.source, t.destination) ∈ e.endpoints := by
  cases h : p.edge? t.operation with
  | none =>
    have hn := (findNameNone Edge.name t.operation p.edges).1 h
    have d : endpointsOk p t = true := by simp [endpointsOk, h]
    rw [d]
    exact Iff.intro (fun _ e he en => absurd en (hn e he)) (fun _ => rfl)
  | some e =>
    have ⟨he, en⟩ := (findNameSome Edge.name t.operation p.edges hd e).1 h
    have d : endpointsOk p t = memPair (t.source, t.destination) e.endpoints := by simp [endpointsOk, h]
    rw [d, memPairIff]
    exact Iff.intro (fun hm e' he' en' => by
        rw [sameName Edge.name hd he' he (en'.trans en.symm)]; exact hm)
      (fun h' => h' e he en)

theorem toolOkIff (p : Policy) (hd : Distinct p.edgeNames) (t : Tool) : toolOk p t = true ↔ ToolWF p t := by
  have d : toolOk p t = (memS t.operation p.edgeNames && (memS t.source p.nodeNames && (memS t.destination p.nodeNames
    && (endpointsOk p t && (subS t.required t.args && (!t.effects.isEmpty && t.effects.all (effArgOk t))))))) := rfl
  rw [d, andIff, andIff, andIff, andIff, andIff, andIff, memSIff, memSIff, memSIff, endpointsOkIff p hd t,
    subSIff, nonEmptyIff, allIff]
  exact Iff.intro
    (fun ⟨a, b, c, e, f, g, h⟩ => ⟨a, b, c, e, f, g, fun x hx => (effArgOkIff t x).1 (h x hx)⟩)
    (fun ⟨a, b, c, e, f, g, h⟩ => ⟨a, b, c, e, f, g, fun x hx => (effArgOkIff t x).2 (h x hx)⟩)

theorem resolverOkIff (p : Policy) (hd : Distinct p.toolNames) (r : Resolver) : resolverOk p r = true ↔ ResolverWF p r := by
  cases h : p.tool? r.tool with
  | none =>
    have hn := (findNameNone Tool.name r.tool p.tools).1 h
    have d : resolverOk p r = false := by simp [resolverOk, h]
    rw [d]
    exact Iff.intro (fun e => by cases e) (fun ⟨t, _, ht, en, _⟩ => absurd en (hn t ht))
  | some t =>
    have ⟨ht, en⟩ := (findNameSome Tool.name r.tool p.tools hd t).1 h
    cases ha : argNames r.args with
    | none =>
      have d : resolverOk p r = false := by simp [resolverOk, h, ha]
      rw [d]
      exact Iff.intro (fun e => by cases e) (fun ⟨_, _, _, _, ea, _⟩ => by rw [ha] at ea; cases ea)
    | some ks =>
      have d : resolverOk p r = (subS ks t.args && subS t.required ks) := by simp [resolverOk, h, ha]
      rw [d, andIff, subSIff, subSIff]
      refine Iff.intro (fun ⟨a, b⟩ => ⟨t, ks, ht, en, ha, a, b⟩) (fun ⟨t', ks', ht', en', ea, a, b⟩ => ?_)
      have et : t' = t := sameName Tool.name hd ht' ht (en'.trans en.symm)
      have ek : ks' = ks := Option.some.inj (ea.symm.trans ha)
      rw [et, ek] at a b
      exact ⟨a, b⟩

theorem viaArgsIff (p : Policy) (hd : Distinct p.toolNames) (via a : String) :
    memS a (viaArgs p via) = true ↔ ViaArg p via a := by
  rw [memSIff]
  cases h : p.tool? via with
  | some t =>
    have ⟨ht, en⟩ := (findNameSome Tool.name via p.tools hd t).1 h
    have d : viaArgs p via = t.args := by simp [viaArgs, h]
    rw [d]
    refine Iff.intro (fun hm => Or.inl ⟨t, ht, en, hm⟩) (fun hv => ?_)
    cases hv with
    | inl h' =>
      have ⟨t', ht', en', hm⟩ := h'
      rw [← sameName Tool.name hd ht' ht (en'.trans en.symm)]
      exact hm
    | inr h' => exact absurd en (h'.1 t ht)
  | none =>
    have hn := (findNameNone Tool.name via p.tools).1 h
    have d : viaArgs p via = (filt (fun t => t.operation == via) p.tools).foldr (fun t acc => t.args ++ acc) [] := by
      simp [viaArgs, h]
    rw [d, memFoldArgs]
    refine Iff.intro (fun ⟨t, hf, hm⟩ => ?_) (fun hv => ?_)
    · have ⟨ht, hop⟩ := memFilt hf
      exact Or.inr ⟨hn, t, ht, strEqOfBeq hop, hm⟩
    · cases hv with
      | inl h' => have ⟨t, ht, en, _⟩ := h'; exact absurd en (hn t ht)
      | inr h' =>
        have ⟨_, t, ht, hop, hm⟩ := h'
        exact ⟨t, filtMem ht ((strBeqIff _ _).2 hop), hm⟩

theorem originOkIff (p : Policy) (hd : Distinct p.toolNames) (o : Origin) : regOriginOk p o = true ↔ OriginWF p o := by
  have d : regOriginOk p o = (memS o.via p.ops && (memS o.producer p.ops && (subS o.preserving p.ops
    && memS o.argument (viaArgs p o.via)))) := rfl
  rw [d, andIff, andIff, andIff, memSIff, memSIff, subSIff, viaArgsIff p hd]
  exact Iff.rfl

theorem sinkOkIff (p : Policy) (hd : Distinct p.toolNames) (f : XFlow) (a : String) :
    sinkOk p f a = true ↔ ∃ t, t ∈ p.tools ∧ t.name = f.destination ∧
      (a = "*" ∨ a ∈ t.args) ∧ (f.operation = "*" ∨ f.operation = t.operation) := by
  cases h : p.tool? f.destination with
  | none =>
    have hn := (findNameNone Tool.name f.destination p.tools).1 h
    have d : sinkOk p f a = false := by simp [sinkOk, h]
    rw [d]
    exact Iff.intro (fun e => by cases e) (fun ⟨t, ht, en, _⟩ => absurd en (hn t ht))
  | some t =>
    have ⟨ht, en⟩ := (findNameSome Tool.name f.destination p.tools hd t).1 h
    have d : sinkOk p f a = ((a == "*" || memS a t.args) && (f.operation == "*" || f.operation == t.operation)) := by
      simp [sinkOk, h]
    rw [d, andIff, orIff, orIff, strBeqIff, memSIff, strBeqIff, strBeqIff]
    refine Iff.intro (fun ⟨x, y⟩ => ⟨t, ht, en, x, y⟩) (fun ⟨t', ht', en', x, y⟩ => ?_)
    rw [sameName Tool.name hd ht' ht (en'.trans en.symm)] at x y
    exact ⟨x, y⟩

theorem flowOkIff (p : Policy) (hd : Distinct p.toolNames) (f : XFlow) : flowOk p f = true ↔ FlowWF p f := by
  cases h : f.argument with
  | some a =>
    have d : flowOk p f = ((f.operation == "*" || memS f.operation p.edgeNames) && sinkOk p f a) := by
      simp [flowOk, h]
    rw [d, andIff, orIff, strBeqIff, memSIff, sinkOkIff p hd f a]
    refine Iff.intro (fun ⟨x, y⟩ => ⟨x, fun a' e => ?_, fun e => Option.noConfusion (h.symm.trans e)⟩)
      (fun ⟨x, y, _⟩ => ⟨x, y a h⟩)
    have ea : a = a' := Option.some.inj (h.symm.trans e)
    rw [← ea]
    exact y
  | none =>
    have d : flowOk p f = ((f.operation == "*" || memS f.operation p.edgeNames) &&
        (f.destination == "*" || memS f.destination p.nodeNames)) := by simp [flowOk, h]
    rw [d, andIff, orIff, strBeqIff, memSIff, orIff, strBeqIff, memSIff]
    exact Iff.intro (fun ⟨x, y⟩ => ⟨x, fun a' e => Option.noConfusion (h.symm.trans e), fun _ => y⟩)
      (fun ⟨x, _, z⟩ => ⟨x, z h⟩)

theorem patOkIff (p : Policy) (pat : Pat) : regPatOk p pat = true ↔ PatWF p pat := by
  cases pat with
  | slot s =>
    show memS s p.slots = true ↔ _
    rw [memSIff]
    exact Iff.intro (fun h s' e => by cases e; exact h) (fun h => h s rfl)
  | any => exact Iff.intro (fun _ s e => by cases e) (fun _ => rfl)
  | const v => exact Iff.intro (fun _ s e => by cases e) (fun _ => rfl)
  | glob g => exact Iff.intro (fun _ s e => by cases e) (fun _ => rfl)

theorem rangeOkIff (lo hi : Option JsonNumber) :
    rangeOk lo hi = true ↔ (lo ≠ none ∨ hi ≠ none) ∧ ∀ l h, lo = some l → hi = some h → numLe l h = true := by
  cases lo with
  | none => cases hi with
    | none => exact Iff.intro (fun e => by cases e) (fun ⟨h, _⟩ => by cases h with | inl h => exact absurd rfl h | inr h => exact absurd rfl h)
    | some h => exact Iff.intro (fun _ => ⟨Or.inr (fun e => by cases e), fun _ _ e => by cases e⟩) (fun _ => rfl)
  | some l => cases hi with
    | none => exact Iff.intro (fun _ => ⟨Or.inl (fun e => by cases e), fun _ _ _ e => by cases e⟩) (fun _ => rfl)
    | some h =>
      show numLe l h = true ↔ _
      exact Iff.intro (fun x => ⟨Or.inl (fun e => by cases e), fun l' h' el eh => by cases el; cases eh; exact x⟩)
        (fun ⟨_, y⟩ => y l h rfl rfl)

theorem predOkIff (q : Pred) : predOk q = true ↔ PredWF q := by
  cases q with
  | eq path v => exact nonEmptyIff path
  | oneOf path vs =>
    show (!path.isEmpty && !vs.isEmpty) = true ↔ _
    rw [andIff, nonEmptyIff, nonEmptyIff]
    exact Iff.rfl
  | range path lo hi =>
    show (!path.isEmpty && rangeOk lo hi) = true ↔ _
    rw [andIff, nonEmptyIff, rangeOkIff]
    exact Iff.rfl

theorem isNoneIff {α : Type} (o : Option α) : o.isNone = true ↔ o = none := by
  cases o with
  | none => exact Iff.intro (fun _ => rfl) (fun _ => rfl)
  | some x => exact Iff.intro (fun e => by cases e) (fun e => by cases e)

theorem denyOkIff (g : Grant) : denyOk g = true ↔ (g.allow = false → g.quota = some 1 ∧ g.requires = none ∧ g.permit = false) := by
  have d : denyOk g = (g.allow || (Decidable.decide (g.quota = some 1) && (g.requires.isNone && !g.permit))) := rfl
  rw [d]
  cases ha : g.allow with
  | true => exact Iff.intro (fun _ e => by cases e) (fun _ => rfl)
  | false =>
    show (Decidable.decide (g.quota = some 1) && (g.requires.isNone && !g.permit)) = true ↔ _
    rw [andIff, andIff, isNoneIff, notIff]
    exact Iff.intro (fun ⟨x, y, z⟩ _ => ⟨ofDecideEqTrue x, y, z⟩) (fun h => ⟨decideEqTrue (h rfl).1, (h rfl).2.1, (h rfl).2.2⟩)

theorem grantOkIff (p : Policy) (g : Grant) : grantOk p g = true ↔ GrantWF p g := by
  have d : grantOk p g = (regPatOk p g.pat && (g.preds.all predOk && denyOk g)) := rfl
  rw [d, andIff, andIff, patOkIff, allIff, denyOkIff]
  exact Iff.intro (fun ⟨x, y, z⟩ => ⟨x, fun q hq => (predOkIff q).1 (y q hq), z⟩)
    (fun ⟨x, y, z⟩ => ⟨x, fun q hq => (predOkIff q).2 (y q hq), z⟩)

theorem audienceOkIff (p : Policy) (a : Audience) : audienceOk p a = true ↔ AudienceWF p a := by
  have d : audienceOk p a = (memS a.node p.nodeNames && (!a.effects.isEmpty && a.effects.all (fun e => regPatOk p e.pat))) := rfl
  rw [d, andIff, andIff, memSIff, nonEmptyIff, allIff]
  exact Iff.intro (fun ⟨x, y, z⟩ => ⟨x, y, fun e he => (patOkIff p e.pat).1 (z e he)⟩)
    (fun ⟨x, y, z⟩ => ⟨x, y, fun e he => (patOkIff p e.pat).2 (z e he)⟩)

theorem historyOkIff (p : Policy) (h : History) : regHistoryOk p h = true ↔ HistoryWF p h := by
  have d : regHistoryOk p h = (memS h.after p.ops && (memS h.require p.ops && memS h.before p.ops)) := rfl
  rw [d, andIff, andIff, memSIff, memSIff, memSIff]
  exact Iff.rfl

theorem allCongr {α : Type} {f : α → Bool} {P : α → Prop} (h : ∀ x, f x = true ↔ P x) (l : List α) :
    List.all l f = true ↔ ∀ x, x ∈ l → P x := by
  rw [allIff]
  exact Iff.intro (fun a x hx => (h x).1 (a x hx)) (fun a x hx => (h x).2 (a x hx))

/-- Registration's meaning is decided by the check, for every policy. -/
theorem registrationOkIff (p : Policy) : registrationOk p = true ↔ RegistrationWF p := by
  have d : registrationOk p = (uniqS p.nodeNames && (uniqS p.edgeNames && (uniqS (p.agents.map (·.name)) && (uniqS p.toolNames &&
    (uniqS (p.origins.map (·.name)) && (uniqS (p.histories.map (·.name)) && (uniqS p.slots &&
    (p.edges.all (edgeOk p) && (p.agents.all (fun a => subS a.ops p.edgeNames) && (p.tools.all (toolOk p) &&
    (p.resolvers.all (resolverOk p) && (p.origins.all (regOriginOk p) && (p.xflows.all (flowOk p) &&
    (p.audiences.all (audienceOk p) && (p.histories.all (regHistoryOk p) && (p.user.all (grantOk p) &&
    p.app.all (grantOk p))))))))))))))))) := rfl
  rw [d]
  simp only [andIff]
  rw [uniqSIff, uniqSIff, uniqSIff, uniqSIff, uniqSIff, uniqSIff, uniqSIff]
  constructor
  · intro ⟨h1, h2, h3, h4, h5, h6, h7, h8, h9, h10, h11, h12, h13, h14, h15, h16, h17⟩
    exact ⟨h1, h2, h3, h4, h5, h6, h7, (allCongr (edgeOkIff p) _).1 h8,
      (allCongr (fun (a : Agent) => subSIff a.ops p.edgeNames) _).1 h9, (allCongr (toolOkIff p h2) _).1 h10,
      (allCongr (resolverOkIff p h4) _).1 h11, (allCongr (originOkIff p h4) _).1 h12,
      (allCongr (flowOkIff p h4) _).1 h13, (allCongr (audienceOkIff p) _).1 h14, (allCongr (historyOkIff p) _).1 h15,
      (allCongr (grantOkIff p) _).1 h16, (allCongr (grantOkIff p) _).1 h17⟩
  · intro w
    exact ⟨w.nodes, w.edges, w.agents, w.tools, w.origins, w.histories, w.slots, (allCongr (edgeOkIff p) _).2 w.edgeWF,
      (allCongr (fun (a : Agent) => subSIff a.ops p.edgeNames) _).2 w.agentWF,
      (allCongr (toolOkIff p w.edges) _).2 w.toolWF, (allCongr (resolverOkIff p w.tools) _).2 w.resolverWF,
      (allCongr (originOkIff p w.tools) _).2 w.originWF, (allCongr (flowOkIff p w.tools) _).2 w.flowWF,
      (allCongr (audienceOkIff p) _).2 w.audienceWF, (allCongr (historyOkIff p) _).2 w.historyWF,
      (allCongr (grantOkIff p) _).2 w.userWF, (allCongr (grantOkIff p) _).2 w.appWF⟩

-- the declarations' form ------------------------------------------------------------------------

/-- A name: an ASCII identifier (a letter or `_`, then letters, digits or `_`) that is not a reserved
word. -/
def IsName (s : String) : Prop :=
  ∃ c cs, s.toList = c :: cs ∧ identStart c = true ∧ (∀ d, d ∈ cs → identChar d = true) ∧ ¬ s ∈ reservedWords

/-- Names joined by dots: every dot-separated part is a name. -/
def IsDotted (s : String) : Prop := ∀ w, w ∈ s.splitOn "." → IsName w

/-- A decimal within ±(2^53 - 1). -/
abbrev SafeNum (x : JsonNumber) : Prop := Int.natAbs x.mantissa ≤ safeInt * pow10N x.exponent

/-- A non-negative integer literal within 2^53 - 1. -/
def IsCount (j : Json) : Prop := ∃ m, j = Json.num ⟨Int.ofNat m, 0⟩ ∧ m ≤ safeInt

/-- A JSON scalar: null, a boolean, a string or a number within ±(2^53 - 1). -/
def IsScalarOk (j : Json) : Prop :=
  j = Json.null ∨ (∃ b, j = Json.bool b) ∨ (∃ s, j = Json.str s) ∨ (∃ x, j = Json.num x ∧ SafeNum x)

def IsBound (j : Json) : Prop := ∃ x, j = Json.num x ∧ SafeNum x

/-- The declaration checks' meaning on the form. -/
structure FormWF (f : Form) : Prop where
  names : ∀ s, s ∈ f.names → IsName s
  dotted : ∀ s, s ∈ f.dotted → IsDotted s
  levels : f.levels ≠ []
  uniqueLevels : Distinct f.levels
  categories : ∀ c, c ∈ f.catRefs → c ∈ f.categories
  requirements : ∀ r, r ∈ f.reqRefs → r ∈ f.requirements
  authoritative : ∀ r, r ∈ f.resolverPaths → ∃ t, t ∈ f.authoritative ∧ t.1 = r.1 ∧ r.2 ∈ t.2
  audiences : ∀ a, a ∈ f.audienceNodes → a ∈ f.sinks
  counts : ∀ j, j ∈ f.counts → IsCount j
  scalars : ∀ j, j ∈ f.scalars → IsScalarOk j
  bounds : ∀ j, j ∈ f.bounds → IsBound j
  levelRefs : ∀ l, l ∈ f.levelRefs → l ∈ f.levels

theorem formAnyIff {α : Type} (g : α → Bool) : ∀ (l : List α), List.any l g = true ↔ ∃ x, x ∈ l ∧ g x = true
  | [] => Iff.intro (fun h => by cases h) (fun ⟨_, hx, _⟩ => nomatch hx)
  | a :: l => by
    have e : List.any (a :: l) g = (g a || List.any l g) := rfl
    rw [e, orIff, formAnyIff g l]
    constructor
    · intro h
      cases h with
      | inl h => exact ⟨a, Mem.head _, h⟩
      | inr h => match h with
        | ⟨x, hx, hg⟩ => exact ⟨x, Mem.tail _ hx, hg⟩
    · intro ⟨x, hx, hg⟩
      cases hx with
      | head _ => exact Or.inl hg
      | tail _ t => exact Or.inr ⟨x, t, hg⟩

theorem formNameIff (s : String) : isNameB s = true ↔ IsName s := by
  cases h : s.toList with
  | nil =>
    have e : isNameB s = false := by simp [isNameB, h]
    rw [e]
    exact Iff.intro (fun h' => by cases h') (fun ⟨c, cs, hc, _⟩ => by rw [h] at hc; exact List.noConfusion hc)
  | cons c cs =>
    have e : isNameB s = (identStart c && (cs.all identChar && !memS s reservedWords)) := by simp [isNameB, h]
    rw [e, andIff, andIff, allIff, notIff, falseIffNot (memSIff s reservedWords)]
    constructor
    · intro ⟨h1, h2, h3⟩
      exact ⟨c, cs, h, h1, h2, h3⟩
    · intro ⟨c', cs', hc, h1, h2, h3⟩
      have e2 : c :: cs = c' :: cs' := by rw [← h]; exact hc
      cases e2
      exact ⟨h1, h2, h3⟩

theorem formDottedIff (s : String) : isDottedB s = true ↔ IsDotted s :=
  allCongr formNameIff (s.splitOn ".")

theorem formSafeIff (x : JsonNumber) : safeNum x = true ↔ SafeNum x :=
  Iff.intro ofDecideEqTrue decideEqTrue

theorem formCountIff : ∀ (j : Json), isCount j = true ↔ IsCount j
  | Json.num ⟨Int.ofNat m, 0⟩ => Iff.intro (fun h => ⟨m, rfl, ofDecideEqTrue h⟩)
      (fun ⟨m', e, h⟩ => by cases e; exact decideEqTrue h)
  | Json.num ⟨Int.ofNat m, e + 1⟩ => Iff.intro (fun h => by cases h) (fun ⟨m', e', _⟩ => by cases e')
  | Json.num ⟨Int.negSucc m, e⟩ => Iff.intro (fun h => by cases h) (fun ⟨m', e', _⟩ => by cases e')
  | Json.null => Iff.intro (fun h => by cases h) (fun ⟨_, e, _⟩ => Json.noConfusion e)
  | Json.bool _ => Iff.intro (fun h => by cases h) (fun ⟨_, e, _⟩ => Json.noConfusion e)
  | Json.str _ => Iff.intro (fun h => by cases h) (fun ⟨_, e, _⟩ => Json.noConfusion e)
  | Json.arr _ => Iff.intro (fun h => by cases h) (fun ⟨_, e, _⟩ => Json.noConfusion e)
  | Json.obj _ => Iff.intro (fun h => by cases h) (fun ⟨_, e, _⟩ => Json.noConfusion e)

theorem formScalarIff : ∀ (j : Json), isScalarOk j = true ↔ IsScalarOk j
  | Json.null => Iff.intro (fun _ => Or.inl rfl) (fun _ => rfl)
  | Json.bool b => Iff.intro (fun _ => Or.inr (Or.inl ⟨b, rfl⟩)) (fun _ => rfl)
  | Json.str s => Iff.intro (fun _ => Or.inr (Or.inr (Or.inl ⟨s, rfl⟩))) (fun _ => rfl)
  | Json.num x => Iff.intro (fun h => Or.inr (Or.inr (Or.inr ⟨x, rfl, ofDecideEqTrue h⟩)))
      (fun h => match h with
        | Or.inl e => Json.noConfusion e
        | Or.inr (Or.inl ⟨_, e⟩) => Json.noConfusion e
        | Or.inr (Or.inr (Or.inl ⟨_, e⟩)) => Json.noConfusion e
        | Or.inr (Or.inr (Or.inr ⟨y, e, hy⟩)) => by cases e; exact decideEqTrue hy)
  | Json.arr a => Iff.intro (fun h => by cases h) (fun h => match h with
        | Or.inl e => Json.noConfusion e
        | Or.inr (Or.inl ⟨_, e⟩) => Json.noConfusion e
        | Or.inr (Or.inr (Or.inl ⟨_, e⟩)) => Json.noConfusion e
        | Or.inr (Or.inr (Or.inr ⟨_, e, _⟩)) => Json.noConfusion e)
  | Json.obj kvs => Iff.intro (fun h => by cases h) (fun h => match h with
        | Or.inl e => Json.noConfusion e
        | Or.inr (Or.inl ⟨_, e⟩) => Json.noConfusion e
        | Or.inr (Or.inr (Or.inl ⟨_, e⟩)) => Json.noConfusion e
        | Or.inr (Or.inr (Or.inr ⟨_, e, _⟩)) => Json.noConfusion e)

theorem formBoundIff : ∀ (j : Json), isBound j = true ↔ IsBound j
  | Json.num x => Iff.intro (fun h => ⟨x, rfl, ofDecideEqTrue h⟩) (fun ⟨y, e, hy⟩ => by cases e; exact decideEqTrue hy)
  | Json.null => Iff.intro (fun h => by cases h) (fun ⟨_, e, _⟩ => Json.noConfusion e)
  | Json.bool _ => Iff.intro (fun h => by cases h) (fun ⟨_, e, _⟩ => Json.noConfusion e)
  | Json.str _ => Iff.intro (fun h => by cases h) (fun ⟨_, e, _⟩ => Json.noConfusion e)
  | Json.arr _ => Iff.intro (fun h => by cases h) (fun ⟨_, e, _⟩ => Json.noConfusion e)
  | Json.obj _ => Iff.intro (fun h => by cases h) (fun ⟨_, e, _⟩ => Json.noConfusion e)

theorem formAuthIff (f : Form) (r : String × String) :
    authOk f r = true ↔ ∃ t, t ∈ f.authoritative ∧ t.1 = r.1 ∧ r.2 ∈ t.2 := by
  show List.any f.authoritative (fun t => t.1 == r.1 && memS r.2 t.2) = true ↔ _
  rw [formAnyIff]
  constructor
  · intro ⟨t, ht, h⟩
    have ⟨h1, h2⟩ := andIff.1 h
    exact ⟨t, ht, (strBeqIff _ _).1 h1, (memSIff _ _).1 h2⟩
  · intro ⟨t, ht, h1, h2⟩
    exact ⟨t, ht, andIff.2 ⟨(strBeqIff _ _).2 h1, (memSIff _ _).2 h2⟩⟩

/-- The declaration checks on the form decide their meaning, for every form. -/
theorem formOkIff (f : Form) : formOk f = true ↔ FormWF f := by
  have d : formOk f = (f.names.all isNameB && (f.dotted.all isDottedB && (!f.levels.isEmpty && (uniqS f.levels &&
    (subS f.catRefs f.categories && (subS f.reqRefs f.requirements && (f.resolverPaths.all (authOk f) &&
    (subS f.audienceNodes f.sinks && (f.counts.all isCount && (f.scalars.all isScalarOk &&
    (f.bounds.all isBound && subS f.levelRefs f.levels))))))))))) := rfl
  rw [d]
  simp only [andIff]
  rw [allCongr formNameIff, allCongr formDottedIff, nonEmptyIff, uniqSIff, subSIff, subSIff,
    allCongr (formAuthIff f), subSIff, allCongr formCountIff, allCongr formScalarIff, allCongr formBoundIff,
    subSIff]
  constructor
  · intro ⟨h1, h2, h3, h4, h5, h6, h7, h8, h9, h10, h11, h12⟩
    exact ⟨h1, h2, h3, h4, h5, h6, h7, h8, h9, h10, h11, h12⟩
  · intro w
    exact ⟨w.names, w.dotted, w.levels, w.uniqueLevels, w.categories, w.requirements, w.authoritative,
      w.audiences, w.counts, w.scalars, w.bounds, w.levelRefs⟩

end AgentWarrant.Monitor.Full
