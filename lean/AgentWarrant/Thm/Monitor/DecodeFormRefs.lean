import AgentWarrant.Thm.Monitor.DecodeSound
import AgentWarrant.Spec.Monitor.DecodeFormRefs
/-! The registration form's category references, dotted names, counts and range bounds are exactly the
places `CatRefAt`, `DottedAt`, `CountAt` and `BoundAt` name: every one `formOf` collects is such a
place, on every document (`catRefsFrom`, `dottedFrom`, `countsFrom`, `boundsFrom`), and on a document
whose objects are search trees (every input the oracle judges) it collects every such place
(`catRefsCollect`, `dottedCollect`, `countsCollect`, `boundsCollect`); together `formCatRefsAtIff`,
`formDottedAtIff`, `formCountsAtIff`, `formBoundsAtIff`. -/
namespace AgentWarrant.Monitor.Full
open Lean AgentWarrant AgentWarrant.Oracle AgentWarrant.Oracle.Registration AgentWarrant.Json

theorem catRefsFrom (j : Json) {s : String} (h : s ∈ (formOf j).catRefs) : CatRefAt j s := by
  cases memAppE h with
  | inl h1 =>
    cases memAppE h1 with
    | inl h2 =>
      have ⟨n, hn, hs0⟩ := memCatMap h2
      cases hf : field n "label" with
      | none => simp only [hf] at hs0; exact nomatch hs0
      | some l =>
        simp only [hf] at hs0
        exact Or.inl ⟨n, l, memArrL hn, fieldSome hf, memStrL hs0⟩
    | inr h2 =>
      have ⟨t, ht, hs⟩ := memCatMap h2
      have ⟨htm, htk⟩ := memFilterStdElim ht
      have ⟨e, he, hpe⟩ := memFilterMap htm
      exact Or.inr (Or.inl ⟨e, t, memArrL he, fieldSome hpe, kindIsField htk, memStrL hs⟩)
  | inr h1 =>
    have ⟨fl, hfl, hs0⟩ := memCatMap h1
    cases hf : field fl "when" with
    | none => simp only [hf] at hs0; exact nomatch hs0
    | some g =>
      simp only [hf] at hs0
      refine Or.inr (Or.inr ⟨fl, g, memArrL hfl, fieldSome hf, ?_⟩)
      cases memAppE hs0 with
      | inl hm => exact Or.inl (memStrL hm)
      | inr hm => exact Or.inr (memStrL hm)

theorem catRefsCollect {j : Json} (hj : ObjsOrdered j) {s : String} (h : CatRefAt j s) : s ∈ (formOf j).catRefs := by
  cases h with
  | inl hn =>
    have ⟨n, l, hn, hl, hs⟩ := hn
    have on := elemOrdered hj hn
    refine memAppL _ (memAppL _ (catMapMem (arrLOf hj hn) ?_))
    show s ∈ (match field n "label" with
      | some l => strL l "categories"
      | none => [])
    rw [fieldOfField on hl]
    exact strLOf (fieldOrdered on hl) hs
  | inr h =>
    cases h with
    | inl he =>
      have ⟨e, t, he, ht, hk, hs⟩ := he
      have oe := elemOrdered hj he
      have ot := fieldOrdered oe ht
      exact memAppL _ (memAppR _ _ (catMapMem (memFilterStd (filterMapMem (arrLOf hj he) (fieldOfField oe ht))
        (kindIsOf ot hk)) (strLOf ot hs)))
    | inr hf =>
      have ⟨fl, g, hfl, hg, hs⟩ := hf
      have ofl := elemOrdered hj hfl
      have og := fieldOrdered ofl hg
      refine memAppR _ _ (catMapMem (arrLOf hj hfl) ?_)
      show s ∈ (match field fl "when" with
        | some g => strL g "any_category" ++ strL g "no_category"
        | none => [])
      rw [fieldOfField ofl hg]
      cases hs with
      | inl hm => exact memAppL _ (strLOf og hm)
      | inr hm => exact memAppR _ _ (strLOf og hm)

/-- On a document whose objects are search trees, the form's category references are exactly the
categories the document's labels, transforms and flow guards name. -/
theorem formCatRefsAtIff {j : Json} (hj : ObjsOrdered j) (s : String) : s ∈ (formOf j).catRefs ↔ CatRefAt j s :=
  ⟨catRefsFrom j, catRefsCollect hj⟩

theorem memValF {j v : Json} {k : String} (h : v ∈ valF j k) : Field j k v ∧ v ≠ Json.null := by
  cases hf : field j k with
  | none =>
    have u : valF j k = [] := by simp [valF, hf]
    rw [u] at h; exact nomatch h
  | some w =>
    cases w with
    | null =>
      have u : valF j k = [] := by simp [valF, hf]
      rw [u] at h; exact nomatch h
    | bool b =>
      have u : valF j k = [Json.bool b] := by simp [valF, hf]
      rw [u] at h
      cases h with
      | head _ => exact ⟨fieldSome hf, fun e => by cases e⟩
      | tail _ h' => exact nomatch h'
    | num n =>
      have u : valF j k = [Json.num n] := by simp [valF, hf]
      rw [u] at h
      cases h with
      | head _ => exact ⟨fieldSome hf, fun e => by cases e⟩
      | tail _ h' => exact nomatch h'
    | str t =>
      have u : valF j k = [Json.str t] := by simp [valF, hf]
      rw [u] at h
      cases h with
      | head _ => exact ⟨fieldSome hf, fun e => by cases e⟩
      | tail _ h' => exact nomatch h'
    | arr a =>
      have u : valF j k = [Json.arr a] := by simp [valF, hf]
      rw [u] at h
      cases h with
      | head _ => exact ⟨fieldSome hf, fun e => by cases e⟩
      | tail _ h' => exact nomatch h'
    | obj o =>
      have u : valF j k = [Json.obj o] := by simp [valF, hf]
      rw [u] at h
      cases h with
      | head _ => exact ⟨fieldSome hf, fun e => by cases e⟩
      | tail _ h' => exact nomatch h'

theorem valFOf {j v : Json} {k : String} (hj : ObjsOrdered j) (h : Field j k v) (hn : v ≠ Json.null) : v ∈ valF j k := by
  have e := fieldOfField hj h
  cases v with
  | null => exact absurd rfl hn
  | bool b =>
    have u : valF j k = [Json.bool b] := by simp [valF, e]
    rw [u]; exact Mem.head _
  | num n =>
    have u : valF j k = [Json.num n] := by simp [valF, e]
    rw [u]; exact Mem.head _
  | str t =>
    have u : valF j k = [Json.str t] := by simp [valF, e]
    rw [u]; exact Mem.head _
  | arr a =>
    have u : valF j k = [Json.arr a] := by simp [valF, e]
    rw [u]; exact Mem.head _
  | obj o =>
    have u : valF j k = [Json.obj o] := by simp [valF, e]
    rw [u]; exact Mem.head _

theorem entryAtOf {j e : Json} (h : e ∈ arrL j "user" ++ arrL j "application") : EntryAt j e := by
  cases memAppE h with
  | inl hu => exact Or.inl (memArrL hu)
  | inr ha => exact Or.inr (memArrL ha)

theorem entryAtIn {j e : Json} (hj : ObjsOrdered j) (h : EntryAt j e) : e ∈ arrL j "user" ++ arrL j "application" ∧ ObjsOrdered e := by
  cases h with
  | inl hu => exact ⟨memAppL _ (arrLOf hj hu), elemOrdered hj hu⟩
  | inr ha => exact ⟨memAppR _ _ (arrLOf hj ha), elemOrdered hj ha⟩

theorem dottedFrom (j : Json) {s : String} (h : s ∈ (formOf j).dotted) : DottedAt j s := by
  cases memAppE h with
  | inl h1 =>
    have ⟨e, he, hs⟩ := memCatMap h1
    have hs' := memStrF hs
    cases memAppE he with
    | inl h2 =>
      cases memAppE h2 with
      | inl h3 =>
        have ⟨t, ht, he'⟩ := memCatMap h3
        exact Or.inl ⟨t, e, memArrL ht, memArrL he', hs'⟩
      | inr h3 =>
        have ⟨a, ha, he'⟩ := memCatMap h3
        exact Or.inr (Or.inl ⟨a, e, memArrL ha, memArrL he', hs'⟩)
    | inr h2 => exact Or.inr (Or.inr (Or.inl ⟨e, entryAtOf h2, hs'⟩))
  | inr h1 =>
    have ⟨t, ht, hs⟩ := memCatMap h1
    exact Or.inr (Or.inr (Or.inr ⟨t, memArrL ht, memStrL hs⟩))

theorem dottedCollect {j : Json} (hj : ObjsOrdered j) {s : String} (h : DottedAt j s) : s ∈ (formOf j).dotted := by
  cases h with
  | inl h1 =>
    have ⟨t, e, ht, he, hs⟩ := h1
    have ot := elemOrdered hj ht
    exact memAppL _ (catMapMem (memAppL _ (memAppL _ (catMapMem (arrLOf hj ht) (arrLOf ot he))))
      (strFOf (elemOrdered ot he) hs))
  | inr h1 =>
    cases h1 with
    | inl h2 =>
      have ⟨a, e, ha, he, hs⟩ := h2
      have oa := elemOrdered hj ha
      exact memAppL _ (catMapMem (memAppL _ (memAppR _ _ (catMapMem (arrLOf hj ha) (arrLOf oa he))))
        (strFOf (elemOrdered oa he) hs))
    | inr h2 =>
      cases h2 with
      | inl h3 =>
        have ⟨e, he, hs⟩ := h3
        have ⟨hin, oe⟩ := entryAtIn hj he
        exact memAppL _ (catMapMem (memAppR _ _ hin) (strFOf oe hs))
      | inr h3 =>
        have ⟨t, ht, hs⟩ := h3
        exact memAppR _ _ (catMapMem (arrLOf hj ht) (strLOf (elemOrdered hj ht) hs))

theorem countsFrom (j : Json) {v : Json} (h : v ∈ (formOf j).counts) : CountAt j v := by
  cases memAppE h with
  | inl h1 =>
    have ⟨t, ht, hv⟩ := memCatMap h1
    have ⟨htm, htk⟩ := memFilterStdElim ht
    have ⟨e, he, hpe⟩ := memFilterMap htm
    have ⟨hf, hn⟩ := memValF hv
    exact ⟨hn, Or.inl ⟨e, t, memArrL he, fieldSome hpe, kindIsField htk, hf⟩⟩
  | inr h1 =>
    have ⟨e, he, hv⟩ := memCatMap h1
    have ⟨hent, hk⟩ := memFilterStdElim he
    have ⟨hf, hn⟩ := memValF hv
    exact ⟨hn, Or.inr ⟨e, entryAtOf hent, kindIsField hk, hf⟩⟩

theorem countsCollect {j : Json} (hj : ObjsOrdered j) {v : Json} (h : CountAt j v) : v ∈ (formOf j).counts := by
  have ⟨hn, h'⟩ := h
  cases h' with
  | inl h1 =>
    have ⟨e, t, he, ht, hk, hv⟩ := h1
    have oe := elemOrdered hj he
    have ot := fieldOrdered oe ht
    exact memAppL _ (catMapMem (memFilterStd (filterMapMem (arrLOf hj he) (fieldOfField oe ht)) (kindIsOf ot hk))
      (valFOf ot hv hn))
  | inr h1 =>
    have ⟨e, he, hk, hv⟩ := h1
    have ⟨hin, oe⟩ := entryAtIn hj he
    exact memAppR _ _ (catMapMem (memFilterStd hin (kindIsOf oe hk)) (valFOf oe hv hn))

theorem boundsFrom (j : Json) {v : Json} (h : v ∈ (formOf j).bounds) : BoundAt j v := by
  have ⟨q, hq, hv0⟩ := memCatMap h
  have ⟨e, he, hqe⟩ := memCatMap hq
  cases hk : kindIs q "range" with
  | false =>
    have u : (if kindIs q "range" = true then valF q "low" ++ valF q "high" else []) = [] := by rw [hk]; rfl
    have hv : v ∈ (if kindIs q "range" = true then valF q "low" ++ valF q "high" else []) := hv0
    rw [u] at hv; exact nomatch hv
  | true =>
    have u : (if kindIs q "range" = true then valF q "low" ++ valF q "high" else []) = valF q "low" ++ valF q "high" := by
      rw [hk]; rfl
    have hv : v ∈ (if kindIs q "range" = true then valF q "low" ++ valF q "high" else []) := hv0
    rw [u] at hv
    cases memAppE hv with
    | inl hl =>
      have ⟨hf, hn⟩ := memValF hl
      exact ⟨hn, e, q, entryAtOf he, memArrL hqe, kindIsField hk, Or.inl hf⟩
    | inr hh =>
      have ⟨hf, hn⟩ := memValF hh
      exact ⟨hn, e, q, entryAtOf he, memArrL hqe, kindIsField hk, Or.inr hf⟩

theorem boundsCollect {j : Json} (hj : ObjsOrdered j) {v : Json} (h : BoundAt j v) : v ∈ (formOf j).bounds := by
  have ⟨hn, e, q, he, hq, hk, hv⟩ := h
  have ⟨hin, oe⟩ := entryAtIn hj he
  have oq := elemOrdered oe hq
  refine catMapMem (catMapMem hin (arrLOf oe hq)) ?_
  show v ∈ (if kindIs q "range" = true then valF q "low" ++ valF q "high" else [])
  rw [kindIsOf oq hk]
  show v ∈ valF q "low" ++ valF q "high"
  cases hv with
  | inl hl => exact memAppL _ (valFOf oq hl hn)
  | inr hh => exact memAppR _ _ (valFOf oq hh hn)

/-- On a document whose objects are search trees, the form's dotted names are exactly the actions of
the document's tool effects, audience effects and grants, and its tools' authoritative paths. -/
theorem formDottedAtIff {j : Json} (hj : ObjsOrdered j) (s : String) : s ∈ (formOf j).dotted ↔ DottedAt j s :=
  ⟨dottedFrom j, dottedCollect hj⟩

/-- ... its counts exactly the transforms' decrements and the allow grants' quotas (other than `null`) ... -/
theorem formCountsAtIff {j : Json} (hj : ObjsOrdered j) (v : Json) : v ∈ (formOf j).counts ↔ CountAt j v :=
  ⟨countsFrom j, countsCollect hj⟩

/-- ... and its bounds exactly the range predicates' bounds (other than `null`). -/
theorem formBoundsAtIff {j : Json} (hj : ObjsOrdered j) (v : Json) : v ∈ (formOf j).bounds ↔ BoundAt j v :=
  ⟨boundsFrom j, boundsCollect hj⟩

theorem strFSingle {j : Json} {k t : String} (h : strF j k = [t]) : Field j k (Json.str t) :=
  memStrF (by rw [h]; exact Mem.head _)

theorem strFEq {j : Json} {k s : String} (hj : ObjsOrdered j) (h : Field j k (Json.str s)) : strF j k = [s] := by
  simp [strF, fieldOfField hj h]

/-- A string member read leniently: none, or the one string there. -/
theorem strFCases (j : Json) (k : String) : strF j k = [] ∨ ∃ s, strF j k = [s] ∧ Field j k (Json.str s) := by
  cases hf : field j k with
  | none => exact Or.inl (by simp [strF, hf])
  | some v =>
    cases v with
    | str s => exact Or.inr ⟨s, by simp [strF, hf], fieldSome hf⟩
    | null => exact Or.inl (by simp [strF, hf])
    | bool _ => exact Or.inl (by simp [strF, hf])
    | num _ => exact Or.inl (by simp [strF, hf])
    | arr _ => exact Or.inl (by simp [strF, hf])
    | obj _ => exact Or.inl (by simp [strF, hf])

theorem resolverPathsFrom (j : Json) {t q : String} (h : (t, q) ∈ (formOf j).resolverPaths) : ResolverPathAt j t q := by
  have ⟨r, hr, hp0⟩ := memCatMap h
  have hp : (t, q) ∈ (match strF r "tool", strF r "path" with
    | [t], [q] => [(t, q)]
    | _, _ => []) := hp0
  cases strFCases r "tool" with
  | inl e1 => rw [e1] at hp; exact nomatch hp
  | inr a1 =>
    have ⟨a, e1, f1⟩ := a1
    cases strFCases r "path" with
    | inl e2 => rw [e1, e2] at hp; exact nomatch hp
    | inr a2 =>
      have ⟨b, e2, f2⟩ := a2
      rw [e1, e2] at hp
      cases hp with
      | head _ => exact ⟨r, memArrL hr, f1, f2⟩
      | tail _ h' => exact nomatch h'

theorem resolverPathsCollect {j : Json} (hj : ObjsOrdered j) {t q : String} (h : ResolverPathAt j t q) :
    (t, q) ∈ (formOf j).resolverPaths := by
  have ⟨r, hr, ht, hq⟩ := h
  have or := elemOrdered hj hr
  refine catMapMem (arrLOf hj hr) ?_
  show (t, q) ∈ (match strF r "tool", strF r "path" with
    | [t], [q] => [(t, q)]
    | _, _ => [])
  rw [strFEq or ht, strFEq or hq]
  exact Mem.head _

theorem authFrom (j : Json) {t q : String} {as : List String} (h : (t, as) ∈ (formOf j).authoritative)
    (hq : q ∈ as) : AuthAt j t q := by
  have ⟨x, hx, hm⟩ := memCatMap h
  have ⟨n, hn, e⟩ := AgentWarrant.memMapInv _ hm
  cases e
  exact ⟨x, memArrL hx, memStrF hn, memStrL hq⟩

theorem authCollect {j : Json} (hj : ObjsOrdered j) {t q : String} (h : AuthAt j t q) :
    ∃ as, (t, as) ∈ (formOf j).authoritative ∧ q ∈ as := by
  have ⟨x, hx, hn, hq⟩ := h
  have ox := elemOrdered hj hx
  refine ⟨strL x "authoritative", catMapMem (arrLOf hj hx) ?_, strLOf ox hq⟩
  show (t, strL x "authoritative") ∈ (strF x "name").map (fun n => (n, strL x "authoritative"))
  rw [strFEq ox hn]
  exact Mem.head _

/-- On a document whose objects are search trees, the form's resolver paths are exactly its resolvers'
tools and paths ... -/
theorem formResolverPathsAtIff {j : Json} (hj : ObjsOrdered j) (t q : String) :
    (t, q) ∈ (formOf j).resolverPaths ↔ ResolverPathAt j t q :=
  ⟨resolverPathsFrom j, resolverPathsCollect hj⟩

/-- ... and a path is among those its authoritative list gives a tool's name exactly when a tool of
that name declares it authoritative. -/
theorem formAuthAtIff {j : Json} (hj : ObjsOrdered j) (t q : String) :
    (∃ as, (t, as) ∈ (formOf j).authoritative ∧ q ∈ as) ↔ AuthAt j t q :=
  ⟨fun ⟨_, h, hq⟩ => authFrom j h hq, authCollect hj⟩

theorem declFrom {j d : Json}
    (h : d ∈ arrL j "nodes" ++ arrL j "edges" ++ arrL j "agents" ++ arrL j "tools" ++ arrL j "origins" ++
      arrL j "histories") : ∃ k, DeclKey k ∧ ElemAt j k d := by
  cases memAppE h with
  | inr h6 => exact ⟨_, Or.inr (Or.inr (Or.inr (Or.inr (Or.inr rfl)))), memArrL h6⟩
  | inl h5 =>
    cases memAppE h5 with
    | inr h => exact ⟨_, Or.inr (Or.inr (Or.inr (Or.inr (Or.inl rfl)))), memArrL h⟩
    | inl h4 =>
      cases memAppE h4 with
      | inr h => exact ⟨_, Or.inr (Or.inr (Or.inr (Or.inl rfl))), memArrL h⟩
      | inl h3 =>
        cases memAppE h3 with
        | inr h => exact ⟨_, Or.inr (Or.inr (Or.inl rfl)), memArrL h⟩
        | inl h2 =>
          cases memAppE h2 with
          | inr h => exact ⟨_, Or.inr (Or.inl rfl), memArrL h⟩
          | inl h1 => exact ⟨_, Or.inl rfl, memArrL h1⟩

theorem declCollect {j d : Json} {k : String} (hj : ObjsOrdered j) (hk : DeclKey k) (h : ElemAt j k d) :
    d ∈ arrL j "nodes" ++ arrL j "edges" ++ arrL j "agents" ++ arrL j "tools" ++ arrL j "origins" ++
      arrL j "histories" := by
  have m := arrLOf hj h
  cases hk with
  | inl e => subst e; exact memAppL _ (memAppL _ (memAppL _ (memAppL _ (memAppL _ m))))
  | inr hk =>
    cases hk with
    | inl e => subst e; exact memAppL _ (memAppL _ (memAppL _ (memAppL _ (memAppR _ _ m))))
    | inr hk =>
      cases hk with
      | inl e => subst e; exact memAppL _ (memAppL _ (memAppL _ (memAppR _ _ m)))
      | inr hk =>
        cases hk with
        | inl e => subst e; exact memAppL _ (memAppL _ (memAppR _ _ m))
        | inr hk =>
          cases hk with
          | inl e => subst e; exact memAppL _ (memAppR _ _ m)
          | inr e => subst e; exact memAppR _ _ m

theorem namesFrom (j : Json) {s : String} (h : s ∈ (formOf j).names) : NameAt j s := by
  cases memAppE h with
  | inr h9 =>
    have ⟨q, hq, hs⟩ := memCatMap h9
    have ⟨e, he, hqe⟩ := memCatMap hq
    exact Or.inr (Or.inr (Or.inr (Or.inr (Or.inr (Or.inr (Or.inr (Or.inr ⟨e, q, entryAtOf he, memArrL hqe, memStrL hs⟩)))))))
  | inl h8 =>
    cases memAppE h8 with
    | inr h =>
      have ⟨e, he, hs⟩ := memCatMap h
      exact Or.inr (Or.inr (Or.inr (Or.inr (Or.inr (Or.inr (Or.inr (Or.inl ⟨e, entryAtOf he, memStrL hs⟩)))))))
    | inl h7 =>
      cases memAppE h7 with
      | inr h =>
        have ⟨t, ht, hs⟩ := memCatMap h
        exact Or.inr (Or.inr (Or.inr (Or.inr (Or.inr (Or.inr (Or.inl ⟨t, memArrL ht, memStrL hs⟩))))))
      | inl h6 =>
        cases memAppE h6 with
        | inr h =>
          have ⟨r, hr, hs⟩ := memCatMap h
          exact Or.inr (Or.inr (Or.inr (Or.inr (Or.inr (Or.inl ⟨r, memArrL hr, memStrF hs⟩)))))
        | inl h5 =>
          cases memAppE h5 with
          | inr h =>
            have ⟨d, hd, hs⟩ := memCatMap h
            have ⟨k, hk, hel⟩ := declFrom hd
            exact Or.inr (Or.inr (Or.inr (Or.inr (Or.inl ⟨k, d, hk, hel, memStrF hs⟩))))
          | inl h4 =>
            cases memAppE h4 with
            | inr h => exact Or.inr (Or.inr (Or.inr (Or.inl (memStrL h))))
            | inl h3 =>
              cases memAppE h3 with
              | inr h => exact Or.inr (Or.inr (Or.inl (memStrL h)))
              | inl h2 =>
                cases memAppE h2 with
                | inr h => exact Or.inr (Or.inl (memStrL h))
                | inl h1 => exact Or.inl (memStrF h1)

theorem namesCollect {j : Json} (hj : ObjsOrdered j) {s : String} (h : NameAt j s) : s ∈ (formOf j).names := by
  -- the nine parts, left-nested: part i is reached by `memAppL` (9 - i) times, then `memAppR`
  cases h with
  | inl h => exact memAppL _ (memAppL _ (memAppL _ (memAppL _ (memAppL _ (memAppL _ (memAppL _ (memAppL _ (strFOf hj h))))))))
  | inr h =>
  cases h with
  | inl h => exact memAppL _ (memAppL _ (memAppL _ (memAppL _ (memAppL _ (memAppL _ (memAppL _ (memAppR _ _ (strLOf hj h))))))))
  | inr h =>
  cases h with
  | inl h => exact memAppL _ (memAppL _ (memAppL _ (memAppL _ (memAppL _ (memAppL _ (memAppR _ _ (strLOf hj h)))))))
  | inr h =>
  cases h with
  | inl h => exact memAppL _ (memAppL _ (memAppL _ (memAppL _ (memAppL _ (memAppR _ _ (strLOf hj h))))))
  | inr h =>
  cases h with
  | inl h =>
    have ⟨k, d, hk, hd, hs⟩ := h
    exact memAppL _ (memAppL _ (memAppL _ (memAppL _ (memAppR _ _
      (catMapMem (declCollect hj hk hd) (strFOf (elemOrdered hj hd) hs))))))
  | inr h =>
  cases h with
  | inl h =>
    have ⟨r, hr, hs⟩ := h
    exact memAppL _ (memAppL _ (memAppL _ (memAppR _ _ (catMapMem (arrLOf hj hr) (strFOf (elemOrdered hj hr) hs)))))
  | inr h =>
  cases h with
  | inl h =>
    have ⟨t, ht, hs⟩ := h
    exact memAppL _ (memAppL _ (memAppR _ _ (catMapMem (arrLOf hj ht) (strLOf (elemOrdered hj ht) hs))))
  | inr h =>
  cases h with
  | inl h =>
    have ⟨e, he, hs⟩ := h
    have ⟨hin, oe⟩ := entryAtIn hj he
    exact memAppL _ (memAppR _ _ (catMapMem hin (strLOf oe hs)))
  | inr h =>
    have ⟨e, q, he, hq, hs⟩ := h
    have ⟨hin, oe⟩ := entryAtIn hj he
    exact memAppR _ _ (catMapMem (catMapMem hin (arrLOf oe hq)) (strLOf (elemOrdered oe hq) hs))

/-- On a document whose objects are search trees, the form's names are exactly the places `NameAt`
names. -/
theorem formNamesAtIff {j : Json} (hj : ObjsOrdered j) (s : String) : s ∈ (formOf j).names ↔ NameAt j s :=
  ⟨namesFrom j, namesCollect hj⟩

theorem holderFrom {j e : Json}
    (h : e ∈ catMap (fun t => arrL t "effects") (arrL j "tools") ++ catMap (fun a => arrL a "effects") (arrL j "audiences") ++
      (arrL j "user" ++ arrL j "application")) : ResourceHolderAt j e := by
  cases memAppE h with
  | inl h1 =>
    cases memAppE h1 with
    | inl h2 => have ⟨t, ht, he⟩ := memCatMap h2; exact Or.inl ⟨t, memArrL ht, memArrL he⟩
    | inr h2 => have ⟨a, ha, he⟩ := memCatMap h2; exact Or.inr (Or.inl ⟨a, memArrL ha, memArrL he⟩)
  | inr h1 => exact Or.inr (Or.inr (entryAtOf h1))

theorem holderCollect {j e : Json} (hj : ObjsOrdered j) (h : ResourceHolderAt j e) :
    e ∈ catMap (fun t => arrL t "effects") (arrL j "tools") ++ catMap (fun a => arrL a "effects") (arrL j "audiences") ++
      (arrL j "user" ++ arrL j "application") ∧ ObjsOrdered e := by
  cases h with
  | inl h1 =>
    have ⟨t, ht, he⟩ := h1
    have ot := elemOrdered hj ht
    exact ⟨memAppL _ (memAppL _ (catMapMem (arrLOf hj ht) (arrLOf ot he))), elemOrdered ot he⟩
  | inr h1 =>
    cases h1 with
    | inl h2 =>
      have ⟨a, ha, he⟩ := h2
      have oa := elemOrdered hj ha
      exact ⟨memAppL _ (memAppR _ _ (catMapMem (arrLOf hj ha) (arrLOf oa he))), elemOrdered oa he⟩
    | inr h2 =>
      have ⟨hin, oe⟩ := entryAtIn hj h2
      exact ⟨memAppR _ _ hin, oe⟩

theorem objValsFrom {a v : Json} (h : v ∈ objVals a) : ∃ k, Field a k v := by
  cases a with
  | obj kvs =>
    have ⟨p, hp, e⟩ := AgentWarrant.memMapInv (fun p : String × Json => p.2) (h : v ∈ (pairs kvs).map (·.2))
    cases p with
    | mk k w =>
      have e' : w = v := e
      subst e'
      exact ⟨k, kvs, rfl, hp⟩
  | null => exact nomatch h
  | bool _ => exact nomatch h
  | num _ => exact nomatch h
  | str _ => exact nomatch h
  | arr _ => exact nomatch h

theorem objValsCollect {a v : Json} {k : String} (h : Field a k v) : v ∈ objVals a := by
  have ⟨kvs, e, hm⟩ := h
  subst e
  exact AgentWarrant.memMapOf (fun p : String × Json => p.2) hm

theorem scalarsFrom (j : Json) {v : Json} (h : v ∈ (formOf j).scalars) : ScalarAt j v := by
  cases memAppE h with
  | inl h1 =>
    cases memAppE h1 with
    | inl h2 =>
      have ⟨e, he, hv0⟩ := memCatMap h2
      cases hf : field e "resource" with
      | none => simp only [hf] at hv0; exact nomatch hv0
      | some r =>
        simp only [hf] at hv0
        have hv : v ∈ (if kindIs r "const" then valF r "value" else []) := hv0
        cases hk : kindIs r "const" with
        | false => rw [hk] at hv; exact nomatch hv
        | true =>
          rw [hk] at hv
          have ⟨hfv, hn⟩ := memValF (hv : v ∈ valF r "value")
          exact Or.inl ⟨hn, e, r, holderFrom he, fieldSome hf, kindIsField hk, hfv⟩
    | inr h2 =>
      have ⟨r, hr, hv0⟩ := memCatMap h2
      cases hf : field r "args" with
      | none => simp only [hf] at hv0; exact nomatch hv0
      | some a =>
        simp only [hf] at hv0
        have ⟨k, hk⟩ := objValsFrom hv0
        exact Or.inr (Or.inl ⟨r, a, k, memArrL hr, fieldSome hf, hk⟩)
  | inr h1 =>
    have ⟨q, hq, hv0⟩ := memCatMap h1
    have ⟨e, he, hqe⟩ := memCatMap hq
    have hv : v ∈ (if kindIs q "eq" then valF q "value" else if kindIs q "one_of" then arrL q "values" else []) := hv0
    cases hk : kindIs q "eq" with
    | true =>
      rw [hk] at hv
      have ⟨hfv, hn⟩ := memValF (hv : v ∈ valF q "value")
      exact Or.inr (Or.inr ⟨e, q, entryAtOf he, memArrL hqe, Or.inl ⟨kindIsField hk, hfv, hn⟩⟩)
    | false =>
      rw [hk] at hv
      cases hk2 : kindIs q "one_of" with
      | false => rw [hk2] at hv; exact nomatch hv
      | true =>
        rw [hk2] at hv
        exact Or.inr (Or.inr ⟨e, q, entryAtOf he, memArrL hqe, Or.inr ⟨kindIsField hk2, memArrL (hv : v ∈ arrL q "values")⟩⟩)

theorem eqNeOneOf : ("eq" : String) ≠ "one_of" := by decide

theorem scalarsCollect {j : Json} (hj : ObjsOrdered j) {v : Json} (h : ScalarAt j v) : v ∈ (formOf j).scalars := by
  cases h with
  | inl h1 =>
    have ⟨hn, e, r, he, hr, hk, hv⟩ := h1
    have ⟨hin, oe⟩ := holderCollect hj he
    have or := fieldOrdered oe hr
    refine memAppL _ (memAppL _ (catMapMem hin ?_))
    show v ∈ (match field e "resource" with
      | some r => constOf r
      | none => [])
    rw [fieldOfField oe hr]
    show v ∈ (if kindIs r "const" then valF r "value" else [])
    rw [kindIsOf or hk]
    exact valFOf or hv hn
  | inr h1 =>
    cases h1 with
    | inl h2 =>
      have ⟨r, a, k, hr, ha, hv⟩ := h2
      have or := elemOrdered hj hr
      refine memAppL _ (memAppR _ _ (catMapMem (arrLOf hj hr) ?_))
      show v ∈ (match field r "args" with
        | some a => objVals a
        | none => [])
      rw [fieldOfField or ha]
      exact objValsCollect hv
    | inr h2 =>
      have ⟨e, q, he, hq, hc⟩ := h2
      have ⟨hin, oe⟩ := entryAtIn hj he
      have oq := elemOrdered oe hq
      refine memAppR _ _ (catMapMem (catMapMem hin (arrLOf oe hq)) ?_)
      show v ∈ (if kindIs q "eq" then valF q "value" else if kindIs q "one_of" then arrL q "values" else [])
      cases hc with
      | inl h3 =>
        have ⟨hk, hv, hn⟩ := h3
        rw [kindIsOf oq hk]
        exact valFOf oq hv hn
      | inr h3 =>
        have ⟨hk, hv⟩ := h3
        have hne : kindIs q "eq" = false := by
          cases hk' : kindIs q "eq" with
          | false => rfl
          | true =>
            have e := fieldEqOfReq oq (reqOfField oq hk) (kindIsField hk')
            have e2 := congrArg (fun w => match w with | Json.str s => s | _ => "") e
            exact absurd e2 eqNeOneOf
        rw [hne, kindIsOf oq hk]
        exact arrLOf oq hv

/-- On a document whose objects are search trees, the form's scalars are exactly the places
`ScalarAt` names. -/
theorem formScalarsAtIff {j : Json} (hj : ObjsOrdered j) (v : Json) : v ∈ (formOf j).scalars ↔ ScalarAt j v :=
  ⟨scalarsFrom j, scalarsCollect hj⟩

end AgentWarrant.Monitor.Full
