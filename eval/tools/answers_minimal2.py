"""Hand-written, hand-labelled answers for six more eval/content questions (minimal form),
second development set.

Each entry: (file, id, question_id, kind, rating, covered, partial, misconceptions, answer).
Checkpoints not listed as covered or partial are "missed".
"""
SD = "evalq-speculative-decoding"
CB = "evalq-continuous-batching"
MOE = "evalq-moe-expert-parallelism"
CP = "evalq-context-parallelism"
ST = "evalq-cuda-streams-overlap"
RL = "evalq-roofline"

ANSWERS = [
# ---------------------------------------------------------------- speculative decoding
("minimal-dev2", "md2-sd-01", SD, "strong", 5,
 "draft-then-verify why-it-is-faster acceptance-rule output-unchanged when-it-helps", "", "",
 """Speculative decoding attacks the fact that generating with a big model is sequential and memory-bound: each token needs a full forward pass that streams all the weights from HBM while doing very little math. So we add a cheap drafter, usually a small model from the same family with the same tokenizer (or Medusa/EAGLE heads, or n-gram lookup in the prompt), which proposes k tokens, say 4 or 5, one after another. Then the target model runs a single forward pass over the last accepted token plus the k drafts. Because that pass is bandwidth-bound, scoring k+1 positions costs about the same as producing one token, and we get the target's distribution at every draft position.

Verification goes left to right. With greedy decoding a draft token is kept if it equals the target's argmax. With sampling, token x is accepted with probability min(1, p(x)/q(x)), where p is the target's probability and q the drafter's; at the first rejection we sample a replacement from the normalized residual max(0, p - q) and discard the rest of the draft. If all k are accepted we also get a bonus token from the target's last position. So each round yields between 1 and k+1 tokens.

That rule is what makes the method lossless: the output distribution is provably the target's, and with greedy decoding the text is identical. The drafter never affects quality, only speed.

The speed-up depends on the acceptance rate and the drafter's relative cost; with a well-aligned drafter 2-3x is typical. A poorly matched drafter, too large a k (more wasted work on rejected tokens), or a large serving batch, where decoding is closer to compute-bound and the extra verification FLOPs aren't free, shrinks the gain and can even make things slower."""),

("minimal-dev2", "md2-sd-02", SD, "strong", 4,
 "draft-then-verify why-it-is-faster output-unchanged", "acceptance-rule when-it-helps", "",
 """The idea is to use a small draft model, for example a 1B model next to a 70B one, to guess the next few tokens, and then have the big model score all of those guesses in a single forward pass instead of one pass per token. That's cheap because a decoding step of a large model is dominated by reading the weights from memory, not by the matrix math, so checking five tokens at once takes roughly the time of generating one. The big model keeps the guesses it agrees with and puts in its own token where it disagrees. Importantly, the final text is the same as if the big model had generated it alone; it's not an approximation, so you don't need to re-evaluate quality. In my experience it works best when the draft model is a good match for the big one."""),

("minimal-dev2", "md2-sd-03", SD, "partial", 2,
 "", "draft-then-verify output-unchanged", "",
 """Speculative decoding uses two models, a small one and a big one. The small model generates some tokens quickly and the big model checks them, so the big model doesn't have to do all the work by itself. This makes generation faster. I believe the quality stays about the same as with the big model."""),

("minimal-dev2", "md2-sd-04", SD, "partial", 3,
 "draft-then-verify why-it-is-faster", "acceptance-rule", "",
 """You run a draft model for a few tokens, maybe four, and then run the target model once on all four positions in parallel. Since decoding is memory-bandwidth bound, that one pass costs about as much as a normal single-token step. You keep the tokens that were correct and continue from there. In practice people report around a 2x speedup."""),

("minimal-dev2", "md2-sd-05", SD, "paraphrase", 4,
 "draft-then-verify why-it-is-faster acceptance-rule output-unchanged", "when-it-helps", "",
 """Think of a fast junior writer and a slow, careful senior one. The junior dashes off the next handful of words; the senior then reads the whole handful in one go, which takes the senior about as long as writing a single word, because the slow part of the senior's job is getting everything it knows off the shelf, not the thinking itself. The senior goes through the guesses from the start and keeps them as long as it would have written the same thing; at the first word it disagrees with, it throws that guess and everything after it away and writes its own word instead. So every round gives you at least one good word, often several. Because the senior signs off on every single word, the finished text is exactly what the senior would have written alone. It only pays off if the junior is usually right."""),

("minimal-dev2", "md2-sd-06", SD, "speech", 4,
 "draft-then-verify why-it-is-faster acceptance-rule output-unchanged", "", "",
 """okay so spec relative decoding sorry speculative decoding um the basic idea is you have a a small drafts model that's like really cheap and it guesses the next uh say four or five tokens and then the big model the the target model runs once over all of them in parallel uh because decoding is memory bounce memory bound right like you're just reading the weights so doing five positions costs about the same as doing one um and then you accept the tokens uh from the left until the first one the big model disagrees with and the big model gives you its own token there so you always get at least one um and there's this uh rejections sampling thing with the ratio of the two probabilities so the the output distribution is exactly the same as the big model it's lossless uh the draft model doesn't change the quality at all um oh and it's also called like assisted generation in hugging face i think"""),

("minimal-dev2", "md2-sd-07", SD, "misconception", 2,
 "draft-then-verify why-it-is-faster", "acceptance-rule", "draft-lowers-quality",
 """With speculative decoding a small model proposes several tokens and the large model checks them in a single batched forward pass, which is cheap because decoding is memory-bound. Tokens the large model is reasonably confident about are kept, and where it disagrees it takes over. The catch is that you're partly shipping the small model's tokens, so output quality drops slightly compared with running the large model alone. It's a speed-versus-quality knob, and you tune how many draft tokens you accept to control how much quality you give up."""),

("minimal-dev2", "md2-sd-08", SD, "rejection", 4,
 "draft-then-verify why-it-is-faster output-unchanged", "acceptance-rule", "",
 """Two things it is not. It isn't a quality trade-off where you settle for the small model's text: every guessed token is checked by the big model, and with the acceptance rule (accept with probability min(1, p_big/p_small), otherwise resample from the leftover distribution) the output follows exactly the big model's distribution. And the big model does not re-check each guessed token in its own forward pass, which would save nothing. It scores all the guesses in one pass, and because a big-model decode step is limited by reading the weights rather than by the math, that pass costs about the same as a single-token step, so every accepted guess is a big-model step you didn't have to take."""),

("minimal-dev2", "md2-sd-09", SD, "short", 2,
 "draft-then-verify", "", "",
 """A small draft model guesses several tokens and the big model verifies them all in one forward pass."""),

("minimal-dev2", "md2-sd-10", SD, "negation", 2,
 "", "draft-then-verify", "",
 """I've seen it switched on in vLLM. As far as I know a smaller model proposes tokens and the main model checks them. I don't remember how the checking works or what happens when a token is wrong, and I don't know whether it changes the output compared with normal decoding. I also couldn't tell you why checking would be cheaper than generating."""),

# ---------------------------------------------------------------- continuous batching
("minimal-dev2", "md2-cb-01", CB, "strong", 5,
 "static-batching-waste iteration-level-scheduling prefill-and-decode kv-memory-admission throughput-and-latency", "", "",
 """With classic request-level batching the server forms a batch, runs it until every sequence has finished, then forms the next one. LLM outputs vary wildly in length, so a batch lives as long as its longest member: slots whose sequences ended early just burn padding, and a newly arrived request waits for the whole batch to drain.

Continuous batching, introduced as iteration-level scheduling in Orca and used by vLLM, TGI and TensorRT-LLM (which calls it in-flight batching), re-decides the batch after every decoding step. A sequence that emits EOS or hits its length limit is evicted immediately, and a queued request takes its place at the next iteration. The sequences sit at different positions, so the engine flattens all their tokens into one ragged batch for the linear layers and runs attention per sequence with variable-length kernels, with no padding to a common length.

New arrivals need a prefill over their entire prompt, which is compute-heavy, while running sequences need cheap, memory-bound decode steps. A long prompt prefilled in one go would stall everyone's token stream, so schedulers use chunked prefill: the prompt is cut into chunks that ride along with decode iterations under a per-step token budget.

The real admission limit is KV-cache memory, not a batch-size constant, and you don't know how long each output will be. vLLM's PagedAttention hands out the cache in fixed-size blocks on demand, and when memory runs out the scheduler preempts a sequence, swapping its blocks to CPU or dropping them and recomputing later.

Net effect: throughput goes up several-fold and queueing delay, hence time to first token, goes down, but inter-token latency for each stream rises as more sequences share every step, so operators cap the batch to meet a latency target."""),

("minimal-dev2", "md2-cb-02", CB, "strong", 4,
 "static-batching-waste iteration-level-scheduling kv-memory-admission throughput-and-latency", "prefill-and-decode", "",
 """Static batching is wasteful for generation because requests finish at very different times: if one answer is 20 tokens and another 2,000, the short one's slot does nothing for the remaining 1,980 steps, and anyone who arrives in the meantime waits until the whole batch is done. Continuous batching makes the batch a living thing: after each forward step the scheduler removes sequences that have finished and immediately admits waiting requests. The size of that batch isn't really a fixed number; it's whatever fits in KV-cache memory, which is why vLLM pairs it with PagedAttention, allocating cache blocks as sequences grow, since nobody knows in advance how long they'll get, and preempting a request if it runs out. New requests also have to process their prompt first, which is a different kind of work from generating, and the scheduler has to fit that in somehow. Overall you get far better GPU utilization and throughput, at the cost of somewhat slower token-by-token streaming for each user when the batch is big."""),

("minimal-dev2", "md2-cb-03", CB, "partial", 2,
 "", "static-batching-waste iteration-level-scheduling throughput-and-latency", "",
 """Continuous batching means that instead of waiting for all the requests in a batch to finish, the server adds new requests as the old ones finish. This keeps the GPU busy and increases throughput. vLLM and TensorRT-LLM both support it."""),

("minimal-dev2", "md2-cb-04", CB, "partial", 3,
 "iteration-level-scheduling", "kv-memory-admission", "",
 """In LLM serving the scheduler works at the level of single decoding steps: every iteration it checks which sequences have finished and fills their places from the queue. The number of sequences you can keep in flight depends mainly on how much KV-cache memory is free. I think vLLM handles this with its paged attention, but I'm not sure exactly how the pages get allocated. Prefill probably plays a role too, but I haven't looked into how they schedule it."""),

("minimal-dev2", "md2-cb-05", CB, "paraphrase", 4,
 "static-batching-waste iteration-level-scheduling kv-memory-admission throughput-and-latency", "", "",
 """Picture a restaurant that seats a whole group at once and won't seat anyone new until the last diner at the table has left: the people who finished early just sit there, and the queue at the door keeps growing. The better way is to check the tables after every course: the moment someone is done they leave, and the next person in line sits down. For a text generator the "course" is one word: after every word the server drops the finished conversations and lets new ones in, so the card never runs half empty. What limits how many you can seat is the scratch memory each conversation's history takes up, and since you never know how long a conversation will go on, that memory is handed out in small blocks as needed; if it runs out, someone is temporarily sent back to the queue. The restaurant serves far more people per hour, though each diner's food comes a bit slower when it's packed."""),

("minimal-dev2", "md2-cb-06", CB, "speech", 4,
 "static-batching-waste iteration-level-scheduling prefill-and-decode", "throughput-and-latency", "",
 """um so contiguous batching sorry continuous batching uh also called in flight batching in tensor r t l l m um so the problem with like normal static batching is that uh you wait for the the longest request to finish and all the short ones are just sitting there padded and the new ones are stuck in the queue um so what you do instead is every iteration like every token step you uh kick out the ones that hit end of sequence and you you pull new ones in from the queue um and the new ones need the uh the pre fill the prompt processing which is compute heavy so v l l m and others do like chunk to pre fill chunked prefill where you split the prompt up so it doesn't block uh the decode for everybody else um and yeah throughput goes way up like i think the orca paper or the any scale blog said like ten x or twenty x something like that"""),

("minimal-dev2", "md2-cb-07", CB, "misconception", 3,
 "iteration-level-scheduling", "static-batching-waste kv-memory-admission throughput-and-latency", "pads-to-common-length",
 """Continuous batching updates the batch at every generation step instead of once per request: when a sequence finishes it's removed and a new request is slotted in right away. Because the GPU needs rectangular tensors, the incoming request is padded up to the current length of the other sequences in the batch, so some compute is wasted on padding, but that's still far better than static batching, where everyone waits for the longest request. It mostly helps throughput. vLLM also manages the KV cache in pages so that more requests fit."""),

("minimal-dev2", "md2-cb-08", CB, "retraction", 4,
 "iteration-level-scheduling static-batching-waste", "throughput-and-latency", "",
 """Continuous batching is when the server waits a few milliseconds to collect incoming requests into a batch and then runs them together... no, sorry, that's dynamic batching as in Triton, and that still runs each batch to completion. Continuous batching works at the level of individual decoding steps: after every step, sequences that produced their end token leave and waiting requests join, so the batch never sits half-empty while one long response keeps generating. That's exactly the waste of static batching it fixes: the slots of short responses idle until the longest one finishes, and new arrivals queue behind it. It raises throughput a lot and cuts the time new requests spend waiting in the queue."""),

("minimal-dev2", "md2-cb-09", CB, "keywords", 1, "", "", "",
 """Orca, iteration-level scheduling, in-flight batching, vLLM, PagedAttention, chunked prefill, preemption, TTFT."""),

("minimal-dev2", "md2-cb-10", CB, "negation", 1,
 "", "throughput-and-latency", "",
 """I've heard the term in connection with vLLM, but honestly I don't know how it differs from the dynamic batching Triton does. I don't know how it deals with requests of different lengths, or with memory. I think it gives higher throughput, but I couldn't explain why."""),

# ---------------------------------------------------------------- mixture of experts
("minimal-dev2", "md2-moe-01", MOE, "strong", 5,
 "router-top-k params-vs-compute all-to-all-dispatch load-balancing ep-costs-and-placement", "", "",
 """In a mixture-of-experts transformer the dense FFN in some or all blocks is replaced by E expert FFNs plus a router, a small linear layer that scores every expert for each token. The token goes to its top-k experts (Switch uses k=1, Mixtral k=2), and the layer output is the gate-weighted sum of those experts' outputs. Since a token only touches k experts, FLOPs per token are roughly those of a dense model with k FFNs, while parameters scale with E: Mixtral 8x7B has about 47B parameters but uses about 13B per token. The memory bill is for all 47B, though, which is the catch for serving.

At scale we use expert parallelism: experts are spread across GPUs, e.g. 64 experts over 8 GPUs gives 8 per GPU. After routing, an all-to-all sends each token's hidden state to the GPU that owns its expert; after the expert computation a second all-to-all returns the outputs to the token's home GPU. That's two all-to-alls per MoE layer in the forward pass and two more in backward.

Routers love to collapse: a few experts win early, get more gradient, and win more. So we add an auxiliary load-balancing loss that pushes the fraction of tokens per expert towards uniform (DeepSeek-V3 adjusts per-expert biases instead), and set a capacity factor, say 1.25x the average tokens per expert; tokens over capacity are dropped and skip the layer through the residual connection.

The all-to-all is bandwidth-hungry and synchronizing: one overloaded expert makes everyone wait. So expert parallelism is usually kept inside an NVLink domain, dispatch is overlapped with compute where possible, and it's combined with data parallelism for attention and with tensor or pipeline parallelism for the rest."""),

("minimal-dev2", "md2-moe-02", MOE, "strong", 4,
 "router-top-k params-vs-compute all-to-all-dispatch", "load-balancing ep-costs-and-placement", "",
 """MoE swaps the feed-forward layer for a set of experts, say 8 or 64 FFNs, and a gating network that scores them per token; each token is sent to its top one or two experts and their outputs are combined with the gate weights. So a model can have, for example, 8x the FFN parameters while each token only pays for two experts' worth of compute; you do still need the memory for all of them.

Expert parallelism shards the experts over GPUs. Each GPU routes its local tokens, then an all-to-all ships the tokens to whichever GPU owns the chosen expert, the experts run, and another all-to-all brings the results back. You need to keep the experts balanced somehow, otherwise some GPUs get flooded. And the all-to-all is expensive, so network bandwidth matters a lot."""),

("minimal-dev2", "md2-moe-03", MOE, "partial", 2,
 "", "router-top-k params-vs-compute all-to-all-dispatch", "",
 """Mixture of experts has many expert networks and a gating network that decides which expert each token goes to. This lets the model be much bigger without needing more compute. For distributed training, each GPU can hold different experts."""),

("minimal-dev2", "md2-moe-04", MOE, "partial", 3,
 "load-balancing", "all-to-all-dispatch", "",
 """The tricky part of MoE in practice is load balancing. The router tends to send most tokens to a few experts, which then become a bottleneck while the others barely get trained, so you add an auxiliary loss that rewards spreading the tokens evenly, and sometimes you cap each expert's capacity and drop the extra tokens. For multi-GPU training the experts live on different GPUs, and I think the tokens are exchanged with an all-to-all, but I haven't implemented it myself."""),

("minimal-dev2", "md2-moe-05", MOE, "paraphrase", 4,
 "router-top-k params-vs-compute all-to-all-dispatch load-balancing", "", "",
 """Instead of one big all-purpose block inside each layer, you have a panel of specialists and a little dispatcher that looks at each word, picks the two specialists best suited to it, and blends their two opinions according to how much it trusts each. Because each word only visits two specialists, the work per word stays small even if you hire dozens of them, so the model can know a lot more for about the same effort per word, though you still need room to keep every specialist on hand. When the panel is spread over many cards, each word has to be mailed to whichever card its specialists sit on and the answers mailed back: an everyone-sends-to-everyone exchange at every such layer. And the dispatcher, left to itself, keeps picking the same few favourites, so during training it gets nudged with an extra penalty to spread the work around, and each specialist has a limit on how many words it takes, beyond which words simply skip it."""),

("minimal-dev2", "md2-moe-06", MOE, "speech", 4,
 "router-top-k params-vs-compute all-to-all-dispatch load-balancing", "ep-costs-and-placement", "",
 """yeah so m o e mixture of experts um basically the the f f n layer becomes like a bunch of experts and there's a router uh a gating thing that picks the top k usually top two experts for each token and like weights them um so you get way more parameters but the flops per token are just for those two experts uh so like mixed trail eight by seven b has what forty seven b total but only like thirteen active um and then for expert parallel uh you put experts on different gpus and you do an all to all uh to send the tokens to the to the right gpu and then another all to all back uh and the problem is like the load balance um if everyone picks the same expert then that gpu is the the straggler and everybody waits so there's a a zillery loss auxiliary loss uh and a capacity factor where you drop tokens"""),

("minimal-dev2", "md2-moe-07", MOE, "misconception", 2,
 "router-top-k", "params-vs-compute all-to-all-dispatch", "memory-only-active",
 """An MoE layer has several expert MLPs and a router that sends each token to the top-2 experts, weighting their outputs by the router's softmax scores. The big advantage is efficiency: since only 2 of the 8 experts in Mixtral are active for a token, you only need memory for the active parameters, about 13B instead of 47B, so it runs on the same hardware as a 13B dense model. In multi-GPU setups you can place the experts on different GPUs and route tokens to them."""),

("minimal-dev2", "md2-moe-08", MOE, "rejection", 4,
 "router-top-k params-vs-compute", "all-to-all-dispatch", "",
 """A common misreading is that every token goes through all the experts and their outputs get averaged. That would cost as much compute as a dense model with all those FFNs and defeat the purpose. The router scores the experts for each token and only the top-k, typically one or two, actually run, with their outputs combined using the router's weights. That's how compute per token stays close to a small dense model while the total parameters grow with the number of experts. The opposite mistake is thinking you then only need memory for the active experts: you don't, every expert's weights have to be resident somewhere, because the next token may pick any of them. That's one reason experts are sharded across GPUs with expert parallelism."""),

("minimal-dev2", "md2-moe-09", MOE, "retraction", 3,
 "all-to-all-dispatch load-balancing", "ep-costs-and-placement", "",
 """With expert parallelism each GPU owns a subset of the experts, and after the router has chosen an expert for each token, the GPUs all-reduce the tokens so that everyone has them... no, that's wrong, an all-reduce would sum them. It's an all-to-all: each GPU sends each token only to the GPU that holds that token's expert, and a second all-to-all brings the outputs home. Balance matters a lot here: if the router piles tokens onto one expert, that GPU becomes the straggler for the whole layer, which is why training uses an auxiliary balancing loss and a capacity limit per expert."""),

("minimal-dev2", "md2-moe-10", MOE, "short", 2,
 "", "router-top-k params-vs-compute", "",
 """A router sends each token to only a couple of experts, so parameters grow without compute growing."""),

# ---------------------------------------------------------------- context parallelism
("minimal-dev2", "md2-cp-01", CP, "strong", 5,
 "shard-tokens local-token-ops ring-kv-passing all-to-all-heads causal-balance", "", "",
 """Context parallelism shards the sequence dimension. With a 128k-token sequence and CP=8, each GPU holds 16k tokens' worth of activations in every layer, so activation memory, which dominates at long context, drops about 8x. That's different from Megatron's sequence parallelism, which only shards the norm and dropout regions inside a tensor-parallel group.

Most of the transformer doesn't care: the MLP, the norms and the QKV and output projections act on each token independently, so each GPU runs them on its local tokens. The weights are fully replicated across the CP group and their gradients are all-reduced across it, as in data parallelism.

Attention is the exception, since every query needs the keys and values of all earlier tokens. Ring attention handles it: each GPU starts with its own K/V block, computes its local queries against it, then passes the block to its neighbour and receives the next, N-1 times. Partial outputs are merged with the online-softmax trick, a running max and sum per query, so the result is exact. The next block's send/receive overlaps with the current block's compute, so with big chunks the communication is hidden.

Causal masking skews this: with contiguous chunks, GPU 0's queries see only their own block while the last GPU sees everything. The fix is to split the sequence into 2N chunks and give GPU i chunks i and 2N-1-i, so every GPU does the same unmasked work.

The alternative is DeepSpeed Ulysses: an all-to-all turns sequence-sharded Q, K, V into head-sharded ones, each GPU computes ordinary full-sequence attention for H/N heads, and another all-to-all switches back. Simple, but the degree can't exceed the number of heads, which bites with GQA."""),

("minimal-dev2", "md2-cp-02", CP, "strong", 4,
 "shard-tokens ring-kv-passing causal-balance", "local-token-ops all-to-all-heads", "",
 """For million-token contexts even one sequence's activations don't fit on a GPU, so context parallelism splits each sequence into contiguous pieces along the token axis, one per GPU, in every layer, and per-GPU activation memory shrinks by the CP degree. The MLPs and norms just run on the local piece. Attention needs all the keys and values, so the GPUs pass K/V blocks to their neighbours in a ring, each one computing its own queries against each block as it arrives and combining the partial softmax results with the usual running max and sum rescaling, like FlashAttention does across tiles; the next block's transfer overlaps with the current block's math. With a causal mask you also have to rebalance: GPU 0 would do almost no attention work and the last GPU the most, so you split into 2N chunks and pair an early chunk with a late one on each GPU. I believe DeepSpeed has a variant that uses all-to-all instead of a ring."""),

("minimal-dev2", "md2-cp-03", CP, "partial", 2,
 "shard-tokens", "ring-kv-passing", "",
 """Context parallelism is for long sequences. You split the sequence across GPUs, so each GPU only processes part of the tokens, which saves activation memory. Because tokens attend to each other, the GPUs have to communicate during attention."""),

("minimal-dev2", "md2-cp-04", CP, "partial", 3,
 "shard-tokens", "ring-kv-passing", "",
 """I'd describe it as an extension of Megatron's sequence parallelism. With tensor parallelism, Megatron already splits the sequence for layer norm and dropout; context parallelism splits the sequence for all layers, including attention, so each GPU keeps activations for only its share of the tokens. For attention the keys and values are exchanged between the GPUs, I think in a ring, and each GPU computes attention for its local queries against them. It's used in Megatron-Core for long-context training, together with TP and PP."""),

("minimal-dev2", "md2-cp-05", CP, "paraphrase", 4,
 "shard-tokens local-token-ops ring-kv-passing causal-balance", "", "",
 """Imagine a document so long that no single card can hold all the intermediate working for it. So you cut it into pieces, give each card one piece, and each card keeps only the working for its own piece, at every layer. Most of the work is done word by word, so each card just gets on with its own words without talking to anyone; every card has a full copy of the model, and they pool their weight corrections at the end like ordinary multi-card training. The one step where words look at other words is the problem: every card needs the "what can I offer" information from everybody else's words. So the cards sit in a circle and pass those bundles along, each card folding every incoming bundle into its running result, keeping track of the biggest score and the running total so the blend comes out exact, while the next bundle is already on its way. And if words may only look backwards, the cards holding the start of the document would sit idle, so each card gets one piece from near the start and one from near the end."""),

("minimal-dev2", "md2-cp-06", CP, "speech", 4,
 "shard-tokens ring-kv-passing all-to-all-heads", "causal-balance", "",
 """okay context parallel um so it's like for long context training uh you split the sequence so like each gpu gets a a chunk of the tokens um and that saves the activation memory uh which is the problem at like a hundred twenty eight k um and for attention you still need the the k and v from the other chunks so there's ring attention where you uh pass the k v blocks around the ring and you like combine them with the the online soft max uh the log sum x thing um and then there's deep speed you listees which does an all to all instead and splits it by heads so each gpu does full attention for some heads um and there's something about the causal mask making it unbalanced i don't remember the exact fix uh"""),

("minimal-dev2", "md2-cp-07", CP, "misconception", 2,
 "shard-tokens", "local-token-ops", "attends-own-chunk-only",
 """Context parallelism splits a long sequence into chunks along the token dimension and puts each chunk on a different GPU, so each GPU only stores activations for its own tokens, which is how you get to very long contexts. The MLP and layer norms work per token, so they need no communication. Attention is also done locally: each GPU computes attention only among the tokens in its own chunk, which is why the chunks should be as large as possible, so that most of the relevant context is still visible."""),

("minimal-dev2", "md2-cp-08", CP, "negation", 2,
 "shard-tokens", "", "",
 """I know context parallelism splits each sequence along the tokens across GPUs so that the activations of long contexts fit in memory. But I don't remember how attention works across the chunks, or what ring attention actually sends around. I'm also not sure what the causal mask has to do with it, and I've never used the DeepSpeed version."""),

("minimal-dev2", "md2-cp-09", CP, "keywords", 1, "", "", "",
 """ring attention, sequence sharding, zigzag load balancing, Ulysses all-to-all, online softmax, 1M context"""),

("minimal-dev2", "md2-cp-10", CP, "rejection", 4,
 "shard-tokens local-token-ops ring-kv-passing", "", "",
 """Two things it is not. It's not a way of splitting the weights: unlike tensor parallelism, every GPU in the context-parallel group holds the full model, and the weight gradients are all-reduced across the group as in data parallelism. What gets split is the sequence: each GPU keeps the activations of only its block of tokens, in every layer, which is where the memory saving for long contexts comes from. And it's not local or windowed attention: a GPU's queries still attend to the keys and values of all the other blocks, which are passed from GPU to GPU around a ring and folded in one at a time with the same rescaling trick FlashAttention uses, so the result is exactly full attention. Everything else in the layer works token by token and needs no communication."""),

# ---------------------------------------------------------------- CUDA streams
("minimal-dev2", "md2-st-01", ST, "strong", 5,
 "stream-ordering pinned-host-memory chunked-pipelining events-not-device-sync check-timeline", "", "",
 """A CUDA stream is an in-order queue of work: kernels, memcpys and event records in one stream execute in the order issued, while work in different streams has no ordering between them and may overlap if resources allow. Watch out for the legacy default stream, which synchronizes with every other blocking stream, so you create your own streams (or compile with per-thread default streams).

GPUs have dedicated copy engines, at least one per direction on data-center parts, so a host-to-device copy, a kernel and a device-to-host copy can all run at once. To exploit that, split the input into chunks and, for each chunk, issue the H2D copy, the kernel and the D2H copy into one stream, round-robin over a few streams. While chunk 2 computes, chunk 3 uploads and chunk 1 downloads. In PyTorch the same pattern is a side stream that prefetches the next batch while the default stream computes on the current one.

The copies must come from pinned, page-locked host memory (cudaMallocHost, or pin_memory=True). A cudaMemcpyAsync from pageable memory has to be staged by the driver through a pinned bounce buffer and loses its asynchrony, so nothing overlaps.

Cross-stream dependencies go through events: record an event after the copy in stream A and cudaStreamWaitEvent on it in stream B, or wait_stream and record_stream in PyTorch. Avoid device-wide syncs, and beware hidden ones: .item(), .cpu() or printing a CUDA tensor all serialize the pipeline.

Finally, verify rather than assume: in an Nsight Systems timeline the memcpy rows should run underneath the kernel rows. Even perfect overlap only hides the shorter of the two, so if the copies take longer than the kernels you're still transfer-bound."""),

("minimal-dev2", "md2-st-02", ST, "strong", 4,
 "stream-ordering pinned-host-memory chunked-pipelining check-timeline", "events-not-device-sync", "",
 """Streams are how you tell CUDA which operations depend on each other. Within a stream everything runs in order; across streams the runtime is free to run things concurrently. The classic use is hiding PCIe transfers: if I have a gigabyte to process, I cut it into, say, eight chunks and cycle through a few streams, each doing copy in, kernel, copy out for its chunk. The copy engine then moves chunk k+1 while the SMs work on chunk k. For that to actually be asynchronous the host buffers have to be pinned; with normal malloc'd memory cudaMemcpyAsync quietly turns into a staged, blocking copy. You also have to be careful about synchronization between the streams. I'd check the result in Nsight Systems: you want to see the memcpy bars on the timeline running underneath the kernels, not in between them."""),

("minimal-dev2", "md2-st-03", ST, "partial", 2,
 "", "stream-ordering chunked-pipelining", "",
 """CUDA streams let you run things in parallel on the GPU. For example you can copy data with cudaMemcpyAsync in one stream while a kernel runs in another, which makes the program faster because you're not waiting for the copy."""),

("minimal-dev2", "md2-st-04", ST, "partial", 3,
 "pinned-host-memory", "chunked-pipelining", "",
 """In PyTorch I handle this in the data loader: set pin_memory=True so the batches land in page-locked memory, which is what lets the copy to the GPU be asynchronous, and then call .to('cuda', non_blocking=True). That way the next batch is copied while the current training step is running on the GPU. Without pinned memory, non_blocking doesn't really do anything."""),

("minimal-dev2", "md2-st-05", ST, "paraphrase", 4,
 "stream-ordering pinned-host-memory chunked-pipelining check-timeline", "", "",
 """Think of the graphics card as having separate loading docks and a factory floor. A stream is one ordered to-do list: things on the same list happen strictly one after another, but two different lists can be worked on at the same time. So rather than unloading the whole delivery, then processing it, then shipping it all back, you split the job into crates and spread them over a few lists; while the floor works on one crate, the docks are already unloading the next and shipping out the previous one. One catch: the docks can only pull straight from a part of the computer's main memory that has been nailed down so the operating system can't move it. From ordinary memory the driver first has to copy everything into a nailed-down spot itself, and the overlap is gone. And you only find out whether it really worked by looking at the profiler's timeline and seeing the unloading happen underneath the work."""),

("minimal-dev2", "md2-st-06", ST, "speech", 4,
 "stream-ordering pinned-host-memory chunked-pipelining check-timeline", "events-not-device-sync", "",
 """uh so a cuda stream is um basically a queue right like everything in the same stream runs in order and uh different streams can run at the same time um so to overlap the the mem copy with the kernel you you use coo da mem copy a sink on a different stream than the kernel uh and you have to use pinned memory uh like pin memory or cuda malloc host otherwise uh it it's not actually a sink it goes through a staging buffer um and then you like chop the data into chunks so chunk one is computing while chunk two is copying in and uh yeah you can see in n sight systems if it actually overlaps uh oh and don't call like dot item in the middle because that syncs everything"""),

("minimal-dev2", "md2-st-07", ST, "misconception", 2,
 "stream-ordering chunked-pipelining", "", "async-without-pinned",
 """Each stream executes its operations in order, and separate streams can overlap. To hide transfers, split the data into chunks and give each chunk its own stream for the copy-in, the kernel and the copy-out, so one chunk's transfer runs while another chunk computes. The key is to use cudaMemcpyAsync instead of cudaMemcpy: the async version returns immediately, so the copy automatically overlaps with whatever kernels are running. Pinned memory is optional; it just gives you somewhat higher bandwidth."""),

("minimal-dev2", "md2-st-08", ST, "retraction", 4,
 "stream-ordering pinned-host-memory events-not-device-sync", "", "",
 """Operations in different streams always run in parallel, so more streams means more speed... actually no, I should be careful there: different streams are only allowed to overlap. If one kernel already occupies all the SMs, a kernel in another stream just waits, and the copy engines are a limited resource too. Within a single stream the order is guaranteed. To overlap transfers with compute you need pinned host memory plus cudaMemcpyAsync on a non-default stream, and you coordinate the streams with events rather than with cudaDeviceSynchronize, which stalls everything."""),

("minimal-dev2", "md2-st-09", ST, "short", 2,
 "", "pinned-host-memory chunked-pipelining", "",
 """Use pinned memory and separate streams so copies run on the copy engines while kernels compute."""),

("minimal-dev2", "md2-st-10", ST, "keywords", 1, "", "", "",
 """cudaStreamCreate, cudaMemcpyAsync, pinned memory, copy engines, cudaEventRecord, double buffering, Nsight Systems"""),

# ---------------------------------------------------------------- roofline
("minimal-dev2", "md2-rl-01", RL, "strong", 5,
 "arithmetic-intensity roofline-min ridge-point op-placement remedies", "", "",
 """Arithmetic intensity is the ratio of floating-point operations a kernel performs to the bytes it moves between DRAM and the chip, in FLOPs per byte. It's a property of the algorithm and its shapes: an FP16 element-wise add does one FLOP per 6 bytes (two reads, one write), while an n x n x n FP16 matmul does 2n^3 FLOPs over about 6n^2 bytes, so its intensity grows like n/3.

The roofline model bounds attainable throughput by min(peak FLOP/s, bandwidth x intensity). On a log-log plot that's a diagonal memory roof rising until it hits the horizontal compute roof. The crossing is the ridge point, peak FLOP/s divided by bandwidth: for an H100 SXM, about 990 dense BF16 TFLOP/s over 3.35 TB/s, roughly 300 FLOPs per byte; for an A100 about 150-200. A kernel left of the ridge is memory-bound, right of it compute-bound.

Most of what deep learning does besides big GEMMs sits far to the left: activations, layer norm, softmax, residual adds, optimizer updates, all at most a few FLOPs per byte. Decoding an LLM at batch size 1 is a matrix-vector product, about one FLOP per byte of FP16 weights, so it's heavily memory-bound. Large-batch GEMMs and convolutions reuse every loaded tile many times and land well right of the ridge.

That dictates the fix. For memory-bound work, cut bytes: fuse element-wise chains into one kernel, store in BF16 or FP8/INT8, batch requests so weights are reused, tile for on-chip reuse as FlashAttention does. For compute-bound work, make sure the math runs on Tensor Cores in low precision, or reduce FLOPs algorithmically. Nsight Compute plots a kernel's achieved point against the roofline, and the distance to the roof tells you how much is left."""),

("minimal-dev2", "md2-rl-02", RL, "strong", 4,
 "arithmetic-intensity roofline-min op-placement remedies", "ridge-point", "",
 """Arithmetic intensity is FLOPs per byte of memory traffic for a given kernel. The roofline plot puts intensity on the x-axis and achievable FLOP/s on the y-axis: at low intensity you're capped by bandwidth times intensity, a rising line, and beyond some point by the flat peak compute of the GPU. Where those two lines meet tells you whether something is memory- or compute-bound. In a transformer, things like GELU, dropout, layer norm and softmax do a handful of FLOPs per element they load, so they're deep in memory-bound territory, while big matmuls with a large batch reuse each element many times and are compute-bound. The practical lesson: for the memory-bound ops, buying more TFLOPS does nothing; you fuse them so intermediates never go back to HBM, or use lower precision to move fewer bytes. For the compute-bound matmuls you want Tensor Cores with BF16 or FP8."""),

("minimal-dev2", "md2-rl-03", RL, "partial", 2,
 "", "arithmetic-intensity roofline-min op-placement", "",
 """Arithmetic intensity is basically how much compute a kernel does compared to how much memory it uses. The roofline model shows whether you're memory-bound or compute-bound. Matrix multiplications are usually compute-bound and element-wise operations are memory-bound."""),

("minimal-dev2", "md2-rl-04", RL, "partial", 3,
 "arithmetic-intensity roofline-min", "remedies", "",
 """Arithmetic intensity = FLOPs / bytes moved from memory. The roofline says performance is limited either by the peak FLOPs or by memory bandwidth x intensity, whichever is lower. If you're under the slanted part, you should reduce memory traffic, for example by fusing kernels. I'd use Nsight Compute to see where a kernel falls."""),

("minimal-dev2", "md2-rl-05", RL, "paraphrase", 4,
 "arithmetic-intensity roofline-min ridge-point op-placement", "remedies", "",
 """Every calculation needs numbers brought in from the card's main memory, and the card can only fetch so many per second and only crunch so many per second. So the question for any piece of work is how many sums it does for each byte it fetches. If it does few, like adding two big arrays, where every number fetched is used once, the card spends its time waiting for deliveries, and the speed you get is just the delivery rate times the sums per byte. If it does many, like multiplying two big grids of numbers, where each fetched number gets reused hundreds of times, you hit the ceiling of how fast the card can crunch. On a chart the limit looks like a ramp that climbs and then flattens into a ceiling, and the corner sits at the card's crunch rate divided by its delivery rate: for today's big cards, a couple of hundred sums per byte. Work to the left of the corner only gets faster by fetching less, for example by combining steps or storing the numbers more compactly."""),

("minimal-dev2", "md2-rl-06", RL, "speech", 3,
 "arithmetic-intensity roofline-min ridge-point", "op-placement", "",
 """okay so arithmetic intensity is um flops per bite like how many operations you do per byte you you load from memory uh and the roof line model is like um you plot that against performance and there's two roofs there's the the memory bandwidth one which is slanted and the the peak compute which is flat and you get the lower one um and the the ridge point uh where they cross is peak flops over bandwidth so on an a one hundred it's like uh i want to say fifteen no it's more like a hundred fifty flops per byte for the tensor cores um and if your kernel is left of that it's memory bound so like layer norm soft max element wise stuff and uh big gems are compute bound um so yeah"""),

("minimal-dev2", "md2-rl-07", RL, "misconception", 2,
 "", "op-placement", "intensity-is-hardware more-flops-fixes-memory-bound",
 """Arithmetic intensity is a hardware spec: it's the GPU's peak FLOP/s divided by its memory bandwidth, for example about 150 for an A100. The roofline model compares that with the kernel's actual performance. Element-wise ops like ReLU or layer norm are memory-bound because they read and write a lot of data for very little math, so they sit under the bandwidth roof. To speed up a memory-bound kernel the easiest fix is a GPU with more TFLOPS, or rewriting it to do fewer floating-point operations."""),

("minimal-dev2", "md2-rl-08", RL, "rejection", 4,
 "arithmetic-intensity roofline-min ridge-point", "remedies", "",
 """People sometimes assume a slow kernel just needs a GPU with more TFLOPS. The roofline model shows why that's wrong for most of them: attainable performance is the minimum of peak compute and memory bandwidth times the kernel's arithmetic intensity, its FLOPs per byte of DRAM traffic. If the intensity is below the machine's ridge point, peak FLOPs over bandwidth, the kernel sits on the bandwidth slope and extra FLOPs change nothing; only more bandwidth or fewer bytes help, by fusing, caching in shared memory or using smaller data types. Nor is it true that fewer FLOPs always means faster: FlashAttention recomputes things in the backward pass and still wins, because it moves less data."""),

("minimal-dev2", "md2-rl-09", RL, "negation", 1,
 "", "roofline-min", "",
 """I've seen roofline charts in Nsight Compute, and I know there's a memory-bound part and a compute-bound part. But I don't remember how arithmetic intensity is defined exactly, and I couldn't tell you where the boundary is for a given GPU. I don't know which deep-learning ops would fall where, either."""),

("minimal-dev2", "md2-rl-10", RL, "retraction", 4,
 "arithmetic-intensity ridge-point op-placement", "remedies", "",
 """Arithmetic intensity is the GPU's peak FLOP/s divided by its memory bandwidth... no, wait, that's the machine's ridge point. Intensity belongs to the kernel: how many FLOPs it does per byte it moves to and from DRAM. You compare the two: a kernel whose intensity is below the ridge point, which is around 150-300 FLOPs per byte for a modern GPU's Tensor Cores, is memory-bound; above it, compute-bound. A batch-1 decoding step, a matrix-vector product with FP16 weights, does 2 FLOPs per 2-byte weight, so roughly 1 FLOP per byte, hopelessly memory-bound, whereas a large training GEMM is well above the ridge. That's why batching decode requests helps: each weight you fetch gets used for more tokens."""),
]
