import AgentWarrant.Spec.Edits.Information
/-! Consistent renaming of a checked record's private identifiers (*When Can Agents Safely
Checkpoint, Fork, Restore, and Merge?*, Appendix A-F: the relation `≅`, Lemma 11, and `Exact(f)`
compared up to renaming).

A renaming `π` is four bijections of `ℕ` (each given with its inverse): on workflow calls, on tool
actions, on rule versions and on result (outcome) IDs. It acts on every place the record names one
of them: each target outcome's ID and the calls in its linearizations, the call → action map
`q_act` (a list indexed by call, so renaming calls reorders it: `q_act'(π x) = π(q_act(x))`), the
labels `ℓ` (indexed by action: `ℓ'(π d) = ℓ(d)`), each authorization record's creator and action,
the queued actions and the active version; on candidates and answers it renames each candidate's
result and each letter's call and action.

Choices where the paper is silent, each forced by the finite encoding of `Information.lean`:
- authorization labels and policy words are not renamed: the paper's pairs display labels, so
  every renaming here is also one of the paper's;
- `q_act` and `ℓ` are lists read by `nth`, which answers 0 outside the list. A renaming fits a
  record (`Fits`) when the call bijection maps the calls `0 … |q_act|-1` onto themselves, the action
  bijection maps `0 … |ℓ|-1` onto themselves and fixes action 0, the default `nth` answers: then the
  renamed lists have the same lengths and `q_act'(π x) = π(q_act(x))`, `ℓ'(π d) = ℓ(d)` hold for every
  `x` and `d`, in or out of range. -/
namespace AgentWarrant.Edits
open AgentWarrant

/-- A bijection of identifiers, with its inverse. -/
structure Perm where
  f : Nat → Nat
  g : Nat → Nat
  fg : ∀ x, f (g x) = x
  gf : ∀ x, g (f x) = x

def Perm.id : Perm := ⟨fun x => x, fun x => x, fun _ => rfl, fun _ => rfl⟩

/-- `p` maps `0 … n-1` onto itself. -/
def PermOn (p : Perm) (n : Nat) : Prop := (∀ x, x < n → p.f x < n) ∧ (∀ x, x < n → p.g x < n)

/-- A consistent renaming of calls, actions, rule versions and result IDs. -/
structure Ren where
  call : Perm
  act : Perm
  ver : Perm
  res : Perm

def Ren.id : Ren := ⟨Perm.id, Perm.id, Perm.id, Perm.id⟩

/-- `k, k+1, …, k+n-1`. -/
def upto : Nat → Nat → List Nat
  | _, 0 => []
  | k, n + 1 => k :: upto (k + 1) n

/-- A map stored as a list indexed by identifiers, with its index renamed by `p` and its values
by `h`: entry `p x` of the result is `h` of entry `x`. -/
def reindex (p : Perm) (h : Nat → Nat) (m : List Nat) : List Nat :=
  List.map (fun j => h (nth m (p.g j))) (upto 0 (List.length m))

def renLetter (π : Ren) (l : Letter) : Letter := ⟨π.call.f l.call, π.act.f l.action, l.new⟩

def renWord (π : Ren) (w : Word) : Word := List.map (renLetter π) w

def renCand (π : Ren) (c : Cand) : Cand := (π.res.f c.1, renWord π c.2)

def renOutcome (π : Ren) (o : Outcome) : Outcome := ⟨π.res.f o.id, List.map (List.map π.call.f) o.lins⟩

def renInst (π : Ren) (i : Inst) : Inst :=
  ⟨List.map (renOutcome π) i.outs, reindex π.call π.act.f i.act, reindex π.act (fun d => d) i.lab,
   List.map π.act.f i.log, i.policy⟩

def renP (π : Ren) (p : PartP) : PartP := ⟨List.map (renOutcome π) p.outs⟩

def renI (π : Ren) (i : PartI) : PartI :=
  ⟨reindex π.call π.act.f i.act, reindex π.act (fun d => d) i.lab⟩

def renAuth (π : Ren) (r : AuthRec) : AuthRec := ⟨π.call.f r.creator, π.act.f r.action⟩

def renE (π : Ren) (e : PartE) : PartE :=
  ⟨List.map (renAuth π) e.auths, e.policy, List.map π.act.f e.queued⟩

def renC (π : Ren) (c : PartC) : PartC := ⟨π.ver.f c.version⟩

/-- `π V`. -/
def renRec (π : Ren) (V : Record) : Record := ⟨renP π V.p, renI π V.i, renE π V.e, renC π V.c⟩

/-- The renaming is a bijection on the identifiers the I part's lists index. -/
def FitsI (π : Ren) (i : PartI) : Prop :=
  PermOn π.call (List.length i.act) ∧ PermOn π.act (List.length i.lab) ∧ π.act.f 0 = 0

def Fits (π : Ren) (V : Record) : Prop := FitsI π V.i

def renChecked (π : Ren) (y : Checked) : Checked := ⟨List.map (renCand π) y.set, renRec π y.cut⟩

def renQuery (π : Ren) : Query → Query
  | Query.decide => Query.decide
  | Query.tryUpdate y => Query.tryUpdate (renChecked π y)

def FitsQ (π : Ren) : Query → Prop
  | Query.decide => True
  | Query.tryUpdate y => Fits π y.cut

def renAnswer (π : Ren) : Answer → Answer
  | Answer.accepted B => Answer.accepted (List.map (renCand π) B)
  | Answer.rejected => Answer.rejected
  | Answer.updated B => Answer.updated (List.map (renCand π) B)
  | Answer.noCommit => Answer.noCommit

def optMap (h : α → α) : Option α → Option α
  | none => none
  | some x => some (h x)

/-- `π` on a `Keep_J` view: each kept part renamed. -/
def renView (π : Ren) (v : View) : View :=
  ⟨optMap (renP π) v.p, optMap (renI π) v.i, optMap (renE π) v.e, optMap (renC π) v.c⟩

def FitsView (π : Ren) (v : View) : Prop := match v.i with
  | none => True
  | some i => FitsI π i

/-- `π` on a `Drop_ca` view: the per-call label list is indexed by call. -/
def renDropCA (π : Ren) (v : PartP × List Nat × List Nat × PartE × PartC) :
    PartP × List Nat × List Nat × PartE × PartC :=
  (renP π v.1, reindex π.call (fun d => d) v.2.1, reindex π.act (fun d => d) v.2.2.1, renE π v.2.2.2.1,
    renC π v.2.2.2.2)

def nthO : List (Option Nat) → Nat → Option Nat
  | [], _ => none
  | a :: _, 0 => a
  | _ :: l, n + 1 => nthO l n

/-- `reindex` for a list of optional values (`none` outside the list). -/
def reindexO (p : Perm) (h : Option Nat → Option Nat) (m : List (Option Nat)) : List (Option Nat) :=
  List.map (fun j => h (nthO m (p.g j))) (upto 0 (List.length m))

/-- `π` on a `Drop_ra` view: the masked `q_act` is indexed by call, the labels by action; each
authorization record keeps its (renamed) creator and its label. -/
def renDropRA (π : Ren)
    (v : PartP × List (Option Nat) × List Nat × List (Nat × Nat) × List (List Nat) × List Nat × PartC) :
    PartP × List (Option Nat) × List Nat × List (Nat × Nat) × List (List Nat) × List Nat × PartC :=
  (renP π v.1, reindexO π.call (optMap π.act.f) v.2.1, reindex π.act (fun d => d) v.2.2.1,
    List.map (fun cl => (π.call.f cl.1, cl.2)) v.2.2.2.1, v.2.2.2.2.1, List.map π.act.f v.2.2.2.2.2.1,
    renC π v.2.2.2.2.2.2)

/-- `Exact(f)` up to renaming (Appendix A-F): whenever `(f V₀, q₀) ≅ (f V₁, q₁)` — one renaming `π`,
fitting `f V₁` and `q₁`, carries the second view and request to the first — the answers are
`≅`: some renaming carries `Ans(V₁, q₁)` to `Ans(V₀, q₀)`. `ren` and `fits` are the renaming on the
view's type. -/
def ExactR (ren : Ren → β → β) (fits : Ren → β → Prop) (f : Record → β) : Prop :=
  ∀ V₀ V₁ q₀ q₁ π, fits π (f V₁) → FitsQ π q₁ → f V₀ = ren π (f V₁) → q₀ = renQuery π q₁ →
    ∃ π', ans V₀ q₀ = renAnswer π' (ans V₁ q₁)

end AgentWarrant.Edits
