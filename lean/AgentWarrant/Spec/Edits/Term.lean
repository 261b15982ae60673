import AgentWarrant.Spec.Edits.Safety
/-! Contract terms and their results (*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*,
Section IV-A; the defined-constructor lemma of Section V-A and Appendix A-D1), with binary
constructors: a call, `nil`, a choice `l ⊕_g r`, parallel `l ∥ r` and sequence `l ; r`.

    ⟦x⟧        = {(∅, ({x}, ∅))}          ⟦nil⟧ = {(∅, (∅, ∅))}
    ⟦l ⊕_g r⟧  = {((g,L)·s, p) | (s,p) ∈ ⟦l⟧} ∪ {((g,R)·s, p) | (s,p) ∈ ⟦r⟧}
    ⟦l ∥ r⟧    = {(s·s', p ⊎ p') | (s,p) ∈ ⟦l⟧, (s',p') ∈ ⟦r⟧}
    ⟦l ; r⟧    = the same, with every event of p before every event of p'

`clone f T` renames every call by `f` (the paper's `clone`, with the choice IDs kept). Choices where
the paper is silent: constructors are binary (an n-ary one is a nesting); a result's selection is
the list of `(choice ID, right arm?)` it took; families, `join`, `▷` and contexts are not modelled. -/
namespace AgentWarrant.Edits
open AgentWarrant

inductive Tm
  | call (c : Nat)
  | nil
  | choice (g : Nat) (l r : Tm)
  | par (l r : Tm)
  | seq (l r : Tm)

def Tm.calls : Tm → List Nat
  | call c => [c]
  | nil => []
  | choice _ l r => calls l ++ calls r
  | par l r => calls l ++ calls r
  | seq l r => calls l ++ calls r

/-- A result of a term: the choices it took and its pomset. -/
structure TOut where
  sel : List (Nat × Bool)
  pom : Pomset

def cross : List Nat → List Nat → List (Nat × Nat)
  | [], _ => []
  | a :: as, bs => List.map (fun b => (a, b)) bs ++ cross as bs

def extraOrder (ordered : Bool) (as bs : List Nat) : List (Nat × Nat) := match ordered with
  | true => cross as bs
  | false => []

def joinOut (ordered : Bool) (a b : TOut) : TOut :=
  ⟨a.sel ++ b.sel, ⟨a.pom.events ++ b.pom.events,
    a.pom.order ++ (b.pom.order ++ extraOrder ordered a.pom.events b.pom.events)⟩⟩

def tagOut (g : Nat) (right : Bool) (o : TOut) : TOut := ⟨(g, right) :: o.sel, o.pom⟩

def prodOut (ordered : Bool) (A B : List TOut) : List TOut :=
  concatL (List.map (fun a => List.map (joinOut ordered a) B) A)

/-- `⟦T⟧`. -/
def Tm.outs : Tm → List TOut
  | call c => [⟨[], ⟨[c], []⟩⟩]
  | nil => [⟨[], ⟨[], []⟩⟩]
  | choice g l r => List.map (tagOut g false) (outs l) ++ List.map (tagOut g true) (outs r)
  | par l r => prodOut false (outs l) (outs r)
  | seq l r => prodOut true (outs l) (outs r)

/-- `clone_f(T)`: every call renamed by `f`. -/
def Tm.clone (f : Nat → Nat) : Tm → Tm
  | call c => call (f c)
  | nil => nil
  | choice g l r => choice g (clone f l) (clone f r)
  | par l r => par (clone f l) (clone f r)
  | seq l r => seq (clone f l) (clone f r)

def renamePom (f : Nat → Nat) (p : Pomset) : Pomset :=
  ⟨List.map f p.events, List.map (fun ab => (f ab.1, f ab.2)) p.order⟩

def renameOut (f : Nat → Nat) (o : TOut) : TOut := ⟨o.sel, renamePom f o.pom⟩

end AgentWarrant.Edits
