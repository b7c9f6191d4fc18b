-- Appeal reasons by side (issue 45): 'not_released' is the buyer's "I paid, the coins were not released",
-- 'not_received' the seller's "the payment was not received". Before, the buyer's form offered
-- "I paid but the seller did not release" under 'not_received'; a buyer's appeal kept with that reason meant
-- 'not_released', and is relabelled so the back office tags it by what the buyer said.
update p2p_appeals a
   set reason = 'not_released'
  from p2p_orders o
 where o.order_id = a.order_id and a.user_id = o.buyer_id and a.reason = 'not_received';
