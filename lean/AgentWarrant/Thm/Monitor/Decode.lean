import AgentWarrant.Oracle.MonitorFull
import AgentWarrant.Thm.Oracle.Traverse
import AgentWarrant.Thm.Oracle.Depth
/-! The oracle's policy decoder reads the places `Decodes` names (`policyOfDecodes`), and so every
resolver's arguments are a member value of an element of the document's `resolvers` array: they nest
less deep than the document (`resolverArgsDepth`), and less deep than `jsonFuel` whenever the
document does, which the oracle's input guard checks of every judgment's input (`guardedDepth`)
and so of the policy inside it (`policyArgsWithin`). -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant AgentWarrant.Oracle AgentWarrant.Oracle.MonitorFull

theorem fieldOfReq {j v : Json} {k : String} (h : req j k = Except.ok v) : Field j k v := reqOk h

theorem listOfOk {α : Type} {j : Json} {k : String} {f : Json → Dec α} {R : Json → α → Prop}
    (hf : ∀ x y, f x = Except.ok y → R x y) {l : List α} (h : listOf j k f = Except.ok l) : ListAt j k R l := by
  cases ho : opt j k with
  | none =>
    have u : listOf j k f = Except.ok [] := by
      have u' : listOf j k f = (match opt j k with
        | none => pure []
        | some _ => arrOf f j k) := rfl
      rw [u', ho]; rfl
    rw [u] at h; cases h; exact Or.inl rfl
  | some v =>
    have u : listOf j k f = arrOf f j k := by
      have u' : listOf j k f = (match opt j k with
        | none => pure []
        | some _ => arrOf f j k) := rfl
      rw [u', ho]
    rw [u] at h
    have ⟨xs, hx, hr⟩ := arrOfOk h
    exact Or.inr ⟨xs, fieldOfReq hx, Oracle.forall2Mono hf hr⟩

theorem policyOfDecodes {j : Json} {p : Policy} (h : policyOf j = Except.ok p) : Decodes j p := by
  have ⟨levels, _, h1⟩ := bindOk h
  have ⟨cats, _, h2⟩ := bindOk h1
  have ⟨nodes, hn, h3⟩ := bindOk h2
  have ⟨edges, _, h4⟩ := bindOk h3
  have ⟨agents, ha, h5⟩ := bindOk h4
  have ⟨tools, ht, h6⟩ := bindOk h5
  have ⟨resolvers, hr, h7⟩ := bindOk h6
  have ⟨origins, _, h8⟩ := bindOk h7
  have ⟨flows, _, h9⟩ := bindOk h8
  have ⟨xflows, _, h10⟩ := bindOk h9
  have ⟨auds, _, h11⟩ := bindOk h10
  have ⟨hists, _, h12⟩ := bindOk h11
  have ⟨user, _, h13⟩ := bindOk h12
  have ⟨app, _, h14⟩ := bindOk h13
  have ep := pureOk h14
  subst ep
  refine ⟨listOfOk (fun x y e => ?_) hr, listOfOk (fun x y e => ?_) hn, listOfOk (fun x y e => ?_) ha,
    listOfOk (fun x y e => ?_) ht⟩
  · have ⟨slot, hs, e1⟩ := bindOk e
    have ⟨tool, htl, e2⟩ := bindOk e1
    have ⟨args, hargs, e3⟩ := bindOk e2
    have ⟨path, hp, e4⟩ := bindOk e3
    have ey := pureOk e4
    subst ey
    exact ⟨fieldOfReq (getStrOk hs), fieldOfReq (getStrOk htl), fieldOfReq hargs, path, fieldOfReq (getStrOk hp), rfl⟩
  · have ⟨name, hs, e1⟩ := bindOk e
    have ⟨_, _, e2⟩ := bindOk e1
    have ⟨_, _, e3⟩ := bindOk e2
    have ey := pureOk e3
    subst ey
    exact fieldOfReq (getStrOk hs)
  · have ⟨name, hs, e1⟩ := bindOk e
    have ⟨_, _, e2⟩ := bindOk e1
    have ⟨_, _, e3⟩ := bindOk e2
    have ⟨_, _, e4⟩ := bindOk e3
    have ey := pureOk e4
    subst ey
    exact fieldOfReq (getStrOk hs)
  · have ⟨name, hs, e1⟩ := bindOk e
    have ⟨_, _, e2⟩ := bindOk e1
    have ⟨_, _, e3⟩ := bindOk e2
    have ⟨_, _, e4⟩ := bindOk e3
    have ⟨_, _, e5⟩ := bindOk e4
    have ⟨_, _, e6⟩ := bindOk e5
    have ey := pureOk e6
    subst ey
    exact fieldOfReq (getStrOk hs)

theorem ltTrans3 {a b c d : Nat} (h1 : a < b) (h2 : b < c) (h3 : c < d) : a < d :=
  Nat.leTrans h1 (Nat.leTrans (Nat.leOfSuccLe h2) (Nat.leOfSuccLe h3))

/-- A decoded resolver's arguments are the `args` member of an element of the document's
`resolvers` array, so they nest less deep than the document. -/
theorem resolverArgsDepth {n : Nat} {j : Json} {p : Policy} {r : Resolver} (hd : Depth n j)
    (h : policyOf j = Except.ok p) (hr : r ∈ p.resolvers) : ∃ m, Depth m r.args ∧ m < n := by
  cases (policyOfDecodes h).1 with
  | inl e => rw [e] at hr; exact nomatch hr
  | inr hx =>
    have ⟨xs, ⟨kvs, ej, hm⟩, hf⟩ := hx
    have ⟨x, hxm, ⟨_, _, ⟨kx, ex, ha⟩, _⟩⟩ := Oracle.forall2Right hf hr
    rw [ej] at hd
    have ⟨m1, d1, l1⟩ := depthObjElem hd hm
    have ⟨m2, d2, l2⟩ := depthArrElem d1 hxm
    rw [ex] at d2
    have ⟨m3, d3, l3⟩ := depthObjElem d2 ha
    exact ⟨m3, d3, ltTrans3 l3 l2 l1⟩

/-- On every input the oracle answers (`guarded`, which every judgment runs under), the resolvers of
the policy decoded from its `policy` member have arguments nesting less deep than `jsonFuel`, the
hypothesis under which `jeq` decides `JEq` on them (`jeqResolversApplying`). -/
theorem policyArgsWithin {f : Json → Except String Json} {input out pj : Json} {p : Policy} {r : Resolver}
    (hg : guarded f input = Except.ok out) (hp : req input "policy" = Except.ok pj)
    (h : policyOf pj = Except.ok p) (hr : r ∈ p.resolvers) : ∃ m, Depth m r.args ∧ m < jsonFuel := by
  have ⟨⟨n, hd, hn⟩, _⟩ := guardedDepth hg
  have ⟨kvs, ej, hm⟩ := reqOk hp
  rw [ej] at hd
  have ⟨m1, d1, l1⟩ := depthObjElem hd hm
  have ⟨m, d, l⟩ := resolverArgsDepth d1 h hr
  exact ⟨m, d, Nat.leTrans l (Nat.leTrans (Nat.leOfSuccLe l1) (Nat.leOfSuccLe hn))⟩

end AgentWarrant.Monitor.Full
