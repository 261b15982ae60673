import AgentWarrant.Oracle.MonitorFull
import AgentWarrant.Thm.Oracle.Traverse
import AgentWarrant.Thm.Oracle.Depth
import AgentWarrant.Thm.Monitor.Full.Permits
/-! The oracle's policy decoder reads the places `Decodes` names (`policyOfDecodes`): every list it
covers is empty or read element by element from the document's array at that key, names and
references from string members, ranks from level names (`rankOk`: a rank is the position of the
level it names in the document's level list). So every
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

theorem optBeqSome {a : Option String} {s : String} (h : (a == some s) = true) : a = some s := by
  cases a with
  | none => cases h
  | some t =>
    have e : (t == s) = true := h
    have e' : t = s := ofDecideEqTrue e
    rw [e']

/-- A rank is the position of the level it names. -/
theorem rankOk {levels : List String} {name : String} {i : Nat} (h : rank levels name = Except.ok i) :
    nth? levels i = some name := by
  cases hf : (List.range levels.length).find? (fun i => nth? levels i == some name) with
  | none =>
    have u : rank levels name = throw s!"unknown level {name}" := by simp [rank, hf]
    rw [u] at h; cases h
  | some k =>
    have u : rank levels name = pure k := by simp [rank, hf]
    rw [u] at h; cases h
    exact optBeqSome (findSome (p := fun i => nth? levels i == some name) hf).2

theorem strsOk {j : Json} {k : String} {l : List String} (h : strs j k = Except.ok l) : StrsAt j k l := by
  have ⟨a, ha, e⟩ := bindOk h
  have el := pureOk e
  subst el
  have ⟨xs, hx, hf⟩ := getStrsOk ha
  exact ⟨xs, fieldOfReq hx, hf⟩

theorem rankAtOk {levels : List String} {x : Json} {k : String} {s : String} {i : Nat}
    (hs : getAs String x k = Except.ok s) (hr : rank levels s = Except.ok i) : RankAt levels x k i :=
  ⟨s, fieldOfReq (getStrOk hs), rankOk hr⟩

theorem grantAtOk {x : Json} {g : Full.Grant} (e : grantOf x = Except.ok g) : GrantAt x g := by
  have ⟨kind, hk, e1⟩ := bindOk e
  -- the optional `keys` and `where` are read before the action, each through a join point
  cases hkeys : opt x "keys" with
  | none =>
    cases hw : opt x "where" with
    | none =>
      simp only [hkeys, hw] at e1
      have ⟨_, _, p0⟩ := bindOk e1
      have ⟨_, _, p1⟩ := bindOk p0
      have ⟨act, hact, t1⟩ := bindOk p1
      have ⟨_, _, t2⟩ := bindOk t1
      have ⟨_, _, t3⟩ := bindOk t2
      have ey := pureOk t3
      subst ey
      exact ⟨⟨kind, fieldOfReq (getStrOk hk), rfl⟩, fieldOfReq (getStrOk hact)⟩
    | some w =>
      simp only [hkeys, hw] at e1
      have ⟨_, _, p0⟩ := bindOk e1
      have ⟨_, _, p1⟩ := bindOk p0
      have ⟨act, hact, t1⟩ := bindOk p1
      have ⟨_, _, t2⟩ := bindOk t1
      have ⟨_, _, t3⟩ := bindOk t2
      have ey := pureOk t3
      subst ey
      exact ⟨⟨kind, fieldOfReq (getStrOk hk), rfl⟩, fieldOfReq (getStrOk hact)⟩
  | some kv =>
    cases hw : opt x "where" with
    | none =>
      simp only [hkeys, hw] at e1
      have ⟨_, _, p0⟩ := bindOk e1
      have ⟨_, _, p1⟩ := bindOk p0
      have ⟨_, _, p2⟩ := bindOk p1
      have ⟨act, hact, t1⟩ := bindOk p2
      have ⟨_, _, t2⟩ := bindOk t1
      have ⟨_, _, t3⟩ := bindOk t2
      have ey := pureOk t3
      subst ey
      exact ⟨⟨kind, fieldOfReq (getStrOk hk), rfl⟩, fieldOfReq (getStrOk hact)⟩
    | some w =>
      simp only [hkeys, hw] at e1
      have ⟨_, _, p0⟩ := bindOk e1
      have ⟨_, _, p1⟩ := bindOk p0
      have ⟨_, _, p2⟩ := bindOk p1
      have ⟨act, hact, t1⟩ := bindOk p2
      have ⟨_, _, t2⟩ := bindOk t1
      have ⟨_, _, t3⟩ := bindOk t2
      have ey := pureOk t3
      subst ey
      exact ⟨⟨kind, fieldOfReq (getStrOk hk), rfl⟩, fieldOfReq (getStrOk hact)⟩

-- unifying each bind of the decoder's long `do` block against `x >>= f` takes more than the default budget
set_option maxHeartbeats 1000000 in
theorem policyOfDecodes {j : Json} {p : Policy} (h : policyOf j = Except.ok p) : Decodes j p := by
  have ⟨levels, hl, h1⟩ := bindOk h
  have ⟨cats, _, h2⟩ := bindOk h1
  have ⟨nodes, hn, h3⟩ := bindOk h2
  have ⟨edges, he, h4⟩ := bindOk h3
  have ⟨agents, ha, h5⟩ := bindOk h4
  have ⟨tools, ht, h6⟩ := bindOk h5
  have ⟨resolvers, hr, h7⟩ := bindOk h6
  have ⟨origins, ho, h8⟩ := bindOk h7
  have ⟨flows, _, h9⟩ := bindOk h8
  have ⟨xflows, _, h10⟩ := bindOk h9
  have ⟨auds, _, h11⟩ := bindOk h10
  have ⟨hists, hh, h12⟩ := bindOk h11
  have ⟨user, hu, h13⟩ := bindOk h12
  have ⟨app, hp, h14⟩ := bindOk h13
  have ep := pureOk h14
  subst ep
  refine ⟨levels, strsOk hl, listOfOk (fun x y e => ?_) hr, listOfOk (fun x y e => ?_) hn,
    listOfOk (fun x y e => ?_) he, listOfOk (fun x y e => ?_) ha, listOfOk (fun x y e => ?_) ht,
    listOfOk (fun x y e => ?_) ho, listOfOk (fun x y e => ?_) hh, listOfOk (fun x y e => ?_) hu,
    listOfOk (fun x y e => ?_) hp⟩
  · -- resolvers
    have ⟨slot, hs, e1⟩ := bindOk e
    have ⟨tool, htl, e2⟩ := bindOk e1
    have ⟨args, hargs, e3⟩ := bindOk e2
    have ⟨path, hpa, e4⟩ := bindOk e3
    have ey := pureOk e4
    subst ey
    exact ⟨fieldOfReq (getStrOk hs), fieldOfReq (getStrOk htl), fieldOfReq hargs, path, fieldOfReq (getStrOk hpa), rfl⟩
  · -- nodes
    have ⟨name, hs, e1⟩ := bindOk e
    have ⟨lj, hlj, e2⟩ := bindOk e1
    have ⟨lab, hlab, e3⟩ := bindOk e2
    have ey := pureOk e3
    subst ey
    have ⟨sens, hsens, l1⟩ := bindOk hlab
    have ⟨rk, hrk, l2⟩ := bindOk l1
    have ⟨_, _, l3⟩ := bindOk l2
    have ⟨tr, htr, l4⟩ := bindOk l3
    have el := pureOk l4
    subst el
    exact ⟨fieldOfReq (getStrOk hs), lj, fieldOfReq hlj, rankAtOk hsens hrk, fieldOfReq (getBoolOk htr)⟩
  · -- edges
    have ⟨_, _, e1⟩ := bindOk e
    have ⟨name, hs, e2⟩ := bindOk e1
    have ⟨pj, hpj, e3⟩ := bindOk e2
    have ⟨_, _, e4⟩ := bindOk e3
    have ey := pureOk e4
    subst ey
    exact ⟨fieldOfReq (getStrOk hs), pj, fieldOfReq hpj⟩
  · -- agents
    have ⟨name, hs, e1⟩ := bindOk e
    have ⟨ops, hops, e2⟩ := bindOk e1
    have ⟨ce, hce, e3⟩ := bindOk e2
    have ⟨rk, hrk, e4⟩ := bindOk e3
    have ey := pureOk e4
    subst ey
    exact ⟨fieldOfReq (getStrOk hs), strsOk hops, rankAtOk hce hrk⟩
  · -- tools
    have ⟨name, hs, e1⟩ := bindOk e
    have ⟨src, hsrc, e2⟩ := bindOk e1
    have ⟨dst, hdst, e3⟩ := bindOk e2
    have ⟨_, _, e4⟩ := bindOk e3
    have ⟨_, _, e5⟩ := bindOk e4
    have ⟨_, _, e6⟩ := bindOk e5
    have ey := pureOk e6
    subst ey
    exact ⟨fieldOfReq (getStrOk hs), fieldOfReq (getStrOk hsrc), fieldOfReq (getStrOk hdst)⟩
  · -- origins
    have ⟨name, hs, e1⟩ := bindOk e
    have ⟨via, hvia, e2⟩ := bindOk e1
    have ⟨arg, harg, e3⟩ := bindOk e2
    have ⟨prod, hprod, e4⟩ := bindOk e3
    have ⟨_, _, e5⟩ := bindOk e4
    have ey := pureOk e5
    subst ey
    exact ⟨fieldOfReq (getStrOk hs), fieldOfReq (getStrOk hvia), fieldOfReq (getStrOk harg), fieldOfReq (getStrOk hprod)⟩
  · -- histories
    have ⟨name, hs, e1⟩ := bindOk e
    have ⟨sc, hsc, e2⟩ := bindOk e1
    have ⟨af, haf, e3⟩ := bindOk e2
    have ⟨rq, hrq, e4⟩ := bindOk e3
    have ⟨bf, hbf, e5⟩ := bindOk e4
    have ey := pureOk e5
    subst ey
    exact ⟨fieldOfReq (getStrOk hs), ⟨sc, fieldOfReq (getStrOk hsc), rfl⟩, fieldOfReq (getStrOk haf),
      fieldOfReq (getStrOk hrq), fieldOfReq (getStrOk hbf)⟩
  · -- user grants
    exact grantAtOk e
  · -- application grants
    exact grantAtOk e

theorem ltTrans3 {a b c d : Nat} (h1 : a < b) (h2 : b < c) (h3 : c < d) : a < d :=
  Nat.leTrans h1 (Nat.leTrans (Nat.leOfSuccLe h2) (Nat.leOfSuccLe h3))

/-- A decoded resolver's arguments are the `args` member of an element of the document's
`resolvers` array, so they nest less deep than the document. -/
theorem resolverArgsDepth {n : Nat} {j : Json} {p : Policy} {r : Resolver} (hd : Depth n j)
    (h : policyOf j = Except.ok p) (hr : r ∈ p.resolvers) : ∃ m, Depth m r.args ∧ m < n := by
  have ⟨_, _, hres, _⟩ := policyOfDecodes h
  cases hres with
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
