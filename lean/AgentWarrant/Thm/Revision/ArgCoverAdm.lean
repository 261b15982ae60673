import AgentWarrant.Thm.Revision.ArgCoverBuildAPrep
/-! The oracle's two input checks, as `admitted` reads them (`Spec/Json/Admit.lean`: nesting below
`jsonFuel`, distinct names and ordered objects at every depth), hold of every value inside a checked
value and of the argument object the monitor builds from checked arguments (Agenra Sections 5.2 and
7.1: what the literal of equality against an array or object constant needs of the call's value).
* `admAt n`: both checks to depth `n`; `admitted` is `admAt` at `jsonFuel - 1` (`admittedAt`), and
  `admAt` is monotone in `n` (`admAtSucc`);
* `admittedArrElem`, `admittedObjElem`, `admittedPath`: an element, a member value, and the value at any
  path of an admitted value is admitted (the checks are inherited downwards; only the converse, from
  `admitted` to `Judged`, was proved before: `admittedJudged`);
* `admAtObjOf`: `Json.mkObj` of pairs whose values pass both checks to depth `n` passes them to depth
  `n + 1`; no distinct-keys hypothesis, because insertion keeps the tree a search tree (`objOfOrd`), whose
  listed pairs have strictly descending keys (`foldDesc`) and so distinct names (`descNodup`);
  the oracle's order check is complete on search trees (`orderedBComplete`).
* `judgedOrderedAdmitted`: a `Judged` value (below `jsonFuel`, distinct names) whose objects are search
  trees is admitted; `Judged` alone does not record the order `admitted` checks, so the statement about
  the oracle's inputs is made for its checks as run (`guardedAdmitted`,
  `Thm/Revision/ArgCoverAdmCall.lean`). -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor AgentWarrant.Monitor.Full AgentWarrant.Json Std.RBNode

/-- Both of the oracle's checks, nesting at most `n` deep (`admitted` runs the name check with one more
unit of fuel than the depth check, which is harmless: the depth bounds the recursion). -/
def admAt (n : Nat) (v : Json) : Bool := Oracle.depthAtMost n v && Oracle.keysAtMost (n + 1) v

theorem admittedAt (v : Json) : admitted v = admAt (99998 + 1) v := by
  have e : jsonFuel = 99998 + 1 + 1 := rfl
  show (Oracle.depthWithin jsonFuel v && Oracle.keysAtMost jsonFuel v) = _
  rw [e]
  rfl

theorem andI {a b : Bool} (ha : a = true) (hb : b = true) : (a && b) = true := by rw [ha, hb]; rfl

theorem depthAtMostSucc {n : Nat} {v : Json} (h : Oracle.depthAtMost n v = true) :
    Oracle.depthAtMost (n + 1) v = true :=
  Oracle.depthAtMostComplete (depthMono (Oracle.depthAtMostSound n v h) (n + 1) (Nat.leSucc n))

theorem keysAtMostSucc : ∀ (n : Nat) (v : Json), Oracle.keysAtMost n v = true → Oracle.keysAtMost (n + 1) v = true
  | 0, Json.null, _ => rfl
  | 0, Json.bool _, _ => rfl
  | 0, Json.num _, _ => rfl
  | 0, Json.str _, _ => rfl
  | 0, Json.arr _, h => by cases h
  | 0, Json.obj _, h => by cases h
  | n + 1, Json.null, _ => rfl
  | n + 1, Json.bool _, _ => rfl
  | n + 1, Json.num _, _ => rfl
  | n + 1, Json.str _, _ => rfl
  | n + 1, Json.arr a, h => allBIntro (fun x hx => keysAtMostSucc n x (allBElim h x hx))
  | n + 1, Json.obj kvs, h => by
    have ⟨h1, h23⟩ := andT h
    have ⟨h2, h3⟩ := andT h23
    exact andI h1 (andI h2 (allBIntro (fun p hp => keysAtMostSucc n p.2 (allBElim h3 p hp))))

theorem admAtSucc {n : Nat} {v : Json} (h : admAt n v = true) : admAt (n + 1) v = true :=
  have ⟨h1, h2⟩ := andT h
  andI (depthAtMostSucc h1) (keysAtMostSucc (n + 1) v h2)

theorem admAtArr {n : Nat} {a : Array Json} {x : Json} (h : admAt (n + 1) (Json.arr a) = true) (hx : x ∈ a.data) :
    admAt n x = true :=
  have ⟨h1, h2⟩ := andT h
  andI (allBElim h1 x hx) (allBElim h2 x hx)

theorem admAtObj {n : Nat} {kvs : Obj} {k : String} {v : Json} (h : admAt (n + 1) (Json.obj kvs) = true)
    (hx : (k, v) ∈ pairs kvs) : admAt n v = true :=
  have ⟨h1, h2⟩ := andT h
  have ⟨_, h23⟩ := andT h2
  have ⟨_, h3⟩ := andT h23
  andI (allBElim h1 (k, v) hx) (allBElim h3 (k, v) hx)

/-- An element of an admitted array is admitted. -/
theorem admittedArrElem {a : Array Json} {x : Json} (h : admitted (Json.arr a) = true) (hx : x ∈ a.data) :
    admitted x = true := by
  rw [admittedAt] at h ⊢
  exact admAtSucc (admAtArr h hx)

/-- A member value of an admitted object is admitted. -/
theorem admittedObjElem {kvs : Obj} {k : String} {v : Json} (h : admitted (Json.obj kvs) = true)
    (hx : (k, v) ∈ pairs kvs) : admitted v = true := by
  rw [admittedAt] at h ⊢
  exact admAtSucc (admAtObj h hx)

-- `find` returns a listed pair ------------------------------------------------------------------------

theorem accMemFold {p : String × Json} : ∀ (t : Obj) (acc : List (String × Json)), p ∈ acc →
    p ∈ t.fold (fun acc k v => (k, v) :: acc) acc
  | leaf, _, h => h
  | node _ l _ _ r, acc, h => accMemFold r _ (Mem.tail _ (accMemFold l acc h))

theorem findMemFold {k : String} {v : Json} : ∀ (t : Obj) (acc : List (String × Json)),
    t.find compare k = some v → (k, v) ∈ t.fold (fun acc k v => (k, v) :: acc) acc
  | leaf, _, h => by cases h
  | node c l ky vy r, acc, h => by
    rw [findNode] at h
    show (k, v) ∈ r.fold (fun acc k v => (k, v) :: acc) ((ky, vy) :: l.fold (fun acc k v => (k, v) :: acc) acc)
    cases hc : compare k ky with
    | lt => rw [hc] at h; exact accMemFold r _ (Mem.tail _ (findMemFold l acc h))
    | gt => rw [hc] at h; exact findMemFold r _ h
    | eq =>
      rw [hc] at h
      have e1 := cmpEqOf hc
      have e2 : vy = v := Option.some.inj h
      rw [e1, e2]
      exact accMemFold r _ (Mem.head _)

theorem findMemPairs {kvs : Obj} {k : String} {v : Json} (h : kvs.find compare k = some v) : (k, v) ∈ pairs kvs :=
  findMemFold kvs [] h

/-- The value at any path of an admitted value is admitted. -/
theorem admittedPath : ∀ (ks : List String) (v x : Json), admitted v = true → lookupPath v ks = some x →
    admitted x = true
  | [], v, x, h, e => by
    rw [lookupNil] at e
    have e' : v = x := Option.some.inj e
    rw [← e']; exact h
  | k :: ks, Json.obj kvs, x, h, e => by
    have e' : (match kvs.find compare k with
      | some v => lookupPath v ks
      | none => none) = some x := e
    cases hf : kvs.find compare k with
    | none => rw [hf] at e'; cases e'
    | some w =>
      rw [hf] at e'
      exact admittedPath ks w x (admittedObjElem h (findMemPairs hf)) e'
  | _ :: _, Json.null, _, _, e => by cases e
  | _ :: _, Json.bool _, _, _, e => by cases e
  | _ :: _, Json.num _, _, _, e => by cases e
  | _ :: _, Json.str _, _, _, e => by cases e
  | _ :: _, Json.arr _, _, _, e => by cases e

-- the argument object `Json.mkObj` builds ---------------------------------------------------------------

/-- Every pair the fold lists meets an invariant every pair of the tree and of the start meets. -/
theorem foldPairsAll {P : String → Json → Prop} : ∀ (t : Obj) (acc : List (String × Json)), PairsAll P t →
    (∀ q, q ∈ acc → P q.1 q.2) → ∀ q, q ∈ t.fold (fun acc k v => (k, v) :: acc) acc → P q.1 q.2
  | leaf, _, _, ha => ha
  | node _ l k v r, acc, ⟨hl, hk, hr⟩, ha =>
    foldPairsAll r _ hr (fun q hq => match memCons hq with
      | Or.inl e => by rw [e]; exact hk
      | Or.inr h => foldPairsAll l acc hl ha q h)

theorem pairsAllOfKeys {P : String → Prop} : ∀ (t : Obj), KeysAll P t → PairsAll (fun k _ => P k) t
  | leaf, _ => trivial
  | node _ l _ _ r, ⟨hl, hk, hr⟩ => ⟨pairsAllOfKeys l hl, hk, pairsAllOfKeys r hr⟩

/-- Keys strictly descending along the list. -/
def Desc : List (String × Json) → Prop
  | [] => True
  | p :: ps => (∀ q, q ∈ ps → compare q.1 p.1 = Ordering.lt) ∧ Desc ps

/-- On a search tree the fold lists its pairs with strictly descending keys, after a start whose keys
are below every key of the tree. -/
theorem foldDesc : ∀ (t : Obj) (acc : List (String × Json)), Ordered t → Desc acc →
    KeysAll (fun x => ∀ q, q ∈ acc → compare q.1 x = Ordering.lt) t →
    Desc (t.fold (fun acc k v => (k, v) :: acc) acc)
  | leaf, _, _, hd, _ => hd
  | node _ l k v r, acc, ⟨hlk, hkr, ol, or⟩, hd, ⟨hal, hak, _⟩ => by
    show Desc (r.fold (fun acc k v => (k, v) :: acc) ((k, v) :: l.fold (fun acc k v => (k, v) :: acc) acc))
    have below : ∀ q, q ∈ l.fold (fun acc k v => (k, v) :: acc) acc → compare q.1 k = Ordering.lt :=
      foldPairsAll (P := fun x _ => compare x k = Ordering.lt) l acc (pairsAllOfKeys l hlk) (fun q hq => hak q hq)
    apply foldDesc r _ or (show Desc ((k, v) :: l.fold (fun acc k v => (k, v) :: acc) acc) from
      ⟨below, foldDesc l acc ol hd hal⟩)
    apply Json.keysAllImp _ r hkr
    intro x hx q hq
    cases memCons hq with
    | inl e => rw [e]; exact hx
    | inr h => exact cmpTrans (below q h) hx

theorem lookupKNoneOf {k : String} : ∀ (ps : List (String × Json)), (∀ q, q ∈ ps → q.1 ≠ k) → lookupK k ps = none
  | [], _ => rfl
  | p :: ps, h => by
    have hp : ¬ (k = p.1) := fun e => h p (Mem.head _) e.symm
    show (if k = p.1 then some p.2 else lookupK k ps) = none
    rw [ifNeg hp]
    exact lookupKNoneOf ps (fun q hq => h q (Mem.tail _ hq))

theorem descNodup : ∀ (ps : List (String × Json)), Desc ps → Oracle.nodupKB ps = true
  | [], _ => rfl
  | p :: ps, ⟨hp, hd⟩ => by
    have e : lookupK p.1 ps = none := lookupKNoneOf ps (fun q hq e => neOfLt (hp q hq) e.symm)
    show (match lookupK p.1 ps with
      | none => Oracle.nodupKB ps
      | some _ => false) = true
    rw [e]
    exact descNodup ps hd

theorem keysAllBComplete {p : String → Bool} : ∀ (t : Obj), KeysAll (fun x => p x = true) t → keysAllB p t = true
  | leaf, _ => rfl
  | node _ l _ _ r, ⟨hl, hk, hr⟩ => andI (andI (keysAllBComplete l hl) hk) (keysAllBComplete r hr)

theorem ltBeq {o : Ordering} (h : o = Ordering.lt) : (o == Ordering.lt) = true := by rw [h]; rfl

/-- The oracle's order check accepts every search tree. -/
theorem orderedBComplete : ∀ (t : Obj), Ordered t → orderedB t = true
  | leaf, _ => rfl
  | node _ l k _ r, ⟨hl, hr, ol, or⟩ =>
    andI (andI (andI (keysAllBComplete l (Json.keysAllImp (fun x h => ltBeq h) l hl))
      (keysAllBComplete r (Json.keysAllImp (fun x h => ltBeq h) r hr))) (orderedBComplete l ol)) (orderedBComplete r or)

theorem keysAllNil : ∀ (t : Obj),
    KeysAll (fun x => ∀ q, q ∈ ([] : List (String × Json)) → compare q.1 x = Ordering.lt) t
  | leaf => trivial
  | node _ l _ _ r => ⟨keysAllNil l, fun q hq => nomatch hq, keysAllNil r⟩

/-- `Json.mkObj` of pairs whose values pass both checks to depth `n` passes them to depth `n + 1`. -/
theorem admAtObjOf (n : Nat) (ps : List (String × Json)) (h : ∀ p, p ∈ ps → admAt n p.2 = true) :
    admAt (n + 1) (Json.mkObj ps) = true := by
  rw [mkObjEq]
  have inv := objOfPairs (fun _ v => admAt n v = true) ps leaf trivial (fun p hp => h p hp)
  have hall : ∀ q, q ∈ pairs (objOf leaf ps) → admAt n q.2 = true :=
    foldPairsAll (objOf leaf ps) [] inv (fun q hq => nomatch hq)
  have ord := objOfOrd ps leaf trivial
  have nd : Oracle.nodupKB (pairs (objOf leaf ps)) = true :=
    descNodup _ (foldDesc (objOf leaf ps) [] ord trivial (keysAllNil (objOf leaf ps)))
  exact andI (allBIntro (fun q hq => (andT (hall q hq)).1))
    (andI nd (andI (orderedBComplete _ ord) (allBIntro (fun q hq => (andT (hall q hq)).2))))

-- a judged value whose objects are search trees is admitted ------------------------------------------------

theorem nodupKBComplete : ∀ (l : List (String × Json)), NodupK l → Oracle.nodupKB l = true
  | [], _ => rfl
  | p :: ps, ⟨h1, h2⟩ => by
    show (match lookupK p.1 ps with
      | none => Oracle.nodupKB ps
      | some _ => false) = true
    rw [h1]
    exact nodupKBComplete ps h2

/-- The name check accepts every value nesting at most `n` deep with distinct names and ordered objects. -/
theorem keysAtMostComplete {n : Nat} {v : Json} (h : Depth n v) :
    KeysDistinct v → ObjsOrdered v → Oracle.keysAtMost n v = true := by
  induction h with
  | null n => intro _ _; cases n <;> rfl
  | bool n b => intro _ _; cases n <;> rfl
  | num n x => intro _ _; cases n <;> rfl
  | str n s => intro _ _; cases n <;> rfl
  | arr n a _ ih =>
    intro kd oo
    exact allBIntro (fun x hx => ih x hx (Oracle.kdArrElem kd hx) (objsOrderedArrElem oo hx))
  | obj n kvs _ ih =>
    intro kd oo
    cases kd with
    | obj _ nd hm =>
      cases oo with
      | obj _ ord hm2 =>
        exact andI (nodupKBComplete _ nd) (andI (orderedBComplete _ ord) (allBIntro (fun p hp => by
          cases p with
          | mk k v => exact ih k v hp (hm k v hp) (hm2 k v hp))))

/-- The converse of `admittedJudged`: a value of the kind the oracle judges (`Judged`: nesting below
`jsonFuel`, distinct names) is admitted when its objects are search trees, which `admitted` checks and
`Judged` does not record. -/
theorem judgedOrderedAdmitted {x : Json} (hj : Oracle.Judged x) (ho : ObjsOrdered x) : admitted x = true := by
  have ⟨⟨n, hd, hn⟩, kd⟩ := hj
  have d : Depth (99998 + 1) x := depthMono hd (99998 + 1) (Nat.leOfSuccLeSucc hn)
  rw [admittedAt]
  exact andI (Oracle.depthAtMostComplete d) (keysAtMostSucc _ x (keysAtMostComplete d kd ho))

end AgentWarrant.Revision.ArgCover
