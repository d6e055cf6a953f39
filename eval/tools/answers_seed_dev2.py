"""Second batch of hand-written, hand-labelled development answers for the three seed questions.

Each entry: (file, id, question_id, kind, rating, covered, partial, misconceptions, answer).
Checkpoints not listed as covered or partial are "missed".
Labelled from /work/shared/rubric-spec.md and eval/README.md conventions only.
"""
TVI = "train-vs-infer-optimization"
TVP = "tensor-vs-pipeline-parallelism"
AR = "allreduce-deep-dive"

TVI_ALL = ("goals-contrast quantization pruning distillation kernel-fusion memory-throughput "
           "tensor-cores-mixed-precision structured-sparsity nvidia-tools combine-and-order "
           "validate-and-profile balanced-tradeoffs")
TVP_ALL = ("tp-definition pp-definition tp-collectives pp-point-to-point microbatches pipeline-bubble "
           "comm-tradeoff interconnect-placement mitigations transformer-example hybrid-frameworks")
AR_ALL = "allreduce-semantics ring-algorithm bandwidth-cost where-in-tp nccl-interconnect overlap-and-alternatives"

ANSWERS = [
# ================================================================ train-vs-infer-optimization
("seed-dev2", "sd2-tvi-01", TVI, "strong", 5, TVI_ALL, "", "",
 """Take a concrete case: a BERT-large ranker trained on 64 A100s that now has to serve under a 20 ms p99 budget. In training the objective is the loss curve: converge to the best accuracy, with big global batches, activations kept for backprop and optimizer state in memory. At serving time the weights are frozen and the objective is latency, memory and dollars per query, and requests often arrive one at a time.

Training side, the main lever is mixed precision: FP16/BF16 matmuls on Tensor Cores (FP8 via Transformer Engine on Hopper), an FP32 master copy of the weights for the update, and loss scaling so small FP16 gradients don't underflow. DALI decodes and augments on the GPU so the input pipeline doesn't starve it.

For serving I'd go in this order. Distill first, since it changes the architecture: a 6-layer student trained on the teacher's temperature-softened logits plus labels; it costs another training run, and a too-small student can't match the teacher. Then prune heads or FFN channels, or use 2:4 sparsity, which Ampere and Hopper sparse Tensor Cores run at up to twice the dense rate; random unstructured zeros don't speed up dense kernels. Fine-tune to recover. Then INT8 or FP8: less memory and traffic, faster math, with a calibration set for the scales, or QAT if the drop is too big. Finally TensorRT builds the engine: it fuses GEMM+bias+GELU into one kernel so intermediates skip the HBM round trip and you pay one launch instead of three (same arithmetic), picks tactics from cuDNN/cuBLAS, and runs the INT8 calibration. Fused graphs are harder to debug and change.

Throughput: Triton dynamic batching raises utilisation at some latency cost; contiguous tensors in the layout the kernels want (NHWC for convs), preallocated buffers.

After each step: held-out accuracy against the FP32 baseline, latency percentiles and throughput under realistic load, Nsight Systems for the timeline and Nsight Compute per kernel. Stop once the target is met: each step trades accuracy and engineering time for speed."""),

("seed-dev2", "sd2-tvi-02", TVI, "strong", 4,
 "goals-contrast quantization distillation kernel-fusion nvidia-tools validate-and-profile balanced-tradeoffs",
 "pruning memory-throughput tensor-cores-mixed-precision", "",
 """Training: you want the model to converge to high accuracy, so you push large batches through forward and backward passes and can afford hours of compute. Inference: the model is fixed, and what matters is per-request latency, memory footprint and cost per query, frequently at batch 1.

Quantization: store weights and activations in FP16 or INT8 instead of FP32. The model gets 2-4x smaller, memory traffic drops and the low-precision units are faster. INT8 needs calibration on a few hundred representative samples to set the scale factors; if accuracy still drops, quantization-aware training.

Distillation: a compact student is trained on the teacher's soft probability outputs, which carry more information than one-hot labels. Extra training cost, and the student has a ceiling.

Pruning: remove the least important weights and fine-tune afterwards.

Fusion: matmul, bias and activation execute in one kernel, so you avoid separate launches and never write the intermediate tensors out to global memory.

Batching: group requests to keep the GPU busy, at the cost of some latency.

FP16 and INT8 both map onto Tensor Cores. TensorRT takes the ONNX model, fuses layers, picks kernels, calibrates INT8 and serializes an engine; cuDNN provides the tuned convolution and attention primitives that frameworks call underneath.

Before shipping I'd compare accuracy with the FP32 model on the validation set, measure p99 latency and throughput with perf_analyzer, and look at the Nsight Systems timeline for gaps. Each of these steps costs accuracy or engineering time, so I'd only go as far as the latency SLA requires."""),

("seed-dev2", "sd2-tvi-03", TVI, "partial", 2,
 "", "goals-contrast quantization pruning kernel-fusion memory-throughput validate-and-profile", "",
 """In training the goal is for the model to learn well, and in inference the goal is for it to run fast. So for inference there are several techniques. Quantization converts the model to lower precision, such as FP16, so it runs faster. Pruning cuts parts of the network that are not needed. I believe kernel fusion merges operations so there are fewer kernels to run. You can also use bigger batches to get more throughput. NVIDIA has TensorRT and cuDNN for this. At the end you check that the accuracy is still okay."""),

("seed-dev2", "sd2-tvi-04", TVI, "partial", 3,
 "tensor-cores-mixed-precision",
 "goals-contrast quantization pruning distillation nvidia-tools validate-and-profile", "",
 """Most of my experience is on the training side, so let me start there. In training the goal is time-to-accuracy: you want the loss to converge, with large batches and the backward pass. We used automatic mixed precision: the matmuls and convolutions run in FP16 on the Tensor Cores, the optimizer keeps FP32 master weights, and dynamic loss scaling stops small gradients from underflowing. On A100 we switched to BF16, which doesn't need the loss scaling. Our input pipeline did JPEG decoding on the CPU and the GPUs were starved, which we saw in Nsight Systems as gaps between iterations; moving decoding and augmentation onto the GPU with DALI fixed it.

For inference the priority shifts to speed. People quantize to INT8, which I understand makes the model smaller and faster, and deploy with TensorRT, but I haven't done that myself. Distillation is where a small model learns from a big one, and pruning removes weights."""),

("seed-dev2", "sd2-tvi-05", TVI, "partial", 2,
 "quantization", "goals-contrast pruning structured-sparsity combine-and-order validate-and-profile", "",
 """Training: maximize accuracy, large batches, you need gradients. Inference: minimize latency. The main inference techniques, roughly in the order I'd apply them: distillation, if there's time for another training run; pruning, for example 2:4 sparsity where two of every four weights are zero, which NVIDIA GPUs have accelerated since Volta; then quantization, which takes FP32 weights down to INT8 so the model is 4x smaller, and you need a calibration step to get the scales; and finally compile with TensorRT. Measure the latency at the end."""),

("seed-dev2", "sd2-tvi-06", TVI, "paraphrase", 4,
 "goals-contrast quantization pruning distillation kernel-fusion validate-and-profile", "memory-throughput", "",
 """While you're teaching the model, all that matters is that it ends up as good as possible; you throw big piles of examples at it and it can take days. Once real users are waiting on it, you care about how long each answer takes, how much memory the thing occupies and what each answer costs, and requests often come in one at a time.

So for the model you serve: you can store every number in a coarser format, one byte instead of four. It gets smaller and quicker to read, but you first feed it some typical inputs to decide how to map the value ranges, and you may lose a little quality. You can cut out the parts that contribute least; whole groups of neurons are best, because the chip only speeds up when the leftover work is still neat and regular, and then you train a bit more to heal. You can raise a smaller apprentice network that learns to copy the big one's full spread of guesses instead of just the right answer. And you can stitch several small steps together into one job on the graphics card, so the in-between results stay on the chip instead of going out to main memory and back.

For throughput, gather the requests that arrive within a few milliseconds and process them together; the card is used much better, but each user waits a bit longer.

Before shipping I'd compare the slimmed-down model's quality against the original on examples it never saw, time it under realistic load, and look at a timeline of what the card is doing to find where the time goes."""),

("seed-dev2", "sd2-tvi-07", TVI, "paraphrase", 3,
 "combine-and-order balanced-tradeoffs",
 "goals-contrast quantization pruning distillation nvidia-tools", "",
 """Think of it as two different jobs. Building the model is about getting it right, and you don't mind if a run takes a week. Running it for customers is about answering fast and cheaply. For the second job I'd first have a smaller model learn from the big one, then trim away what it doesn't need, then switch to smaller number formats, and only at the very end hand the result to NVIDIA's compiler, which glues operations together for the specific card you deploy on. Doing it in that order means every later step is tuned on the model you'll actually ship, and the compiler sees the final precision. Whatever you do, every shortcut costs a little accuracy or a lot of engineering time, so you stop as soon as you hit the speed target instead of chasing every last millisecond."""),

("seed-dev2", "sd2-tvi-08", TVI, "speech", 4,
 "goals-contrast quantization pruning distillation kernel-fusion structured-sparsity nvidia-tools validate-and-profile",
 "", "",
 """so um the the main difference is like in training you're you're trying to get the loss down right you want it to converge to good accuracy and you use big batches and back prop and all that and in inference you uh you just care about how fast one request comes back and how much memory and money it costs um often it's like batch size one so um quantization you go from f p thirty two to to f p sixteen or into eight uh int eight and you need uh calibration data to figure out the the scales otherwise the accuracy drops and there's q a t if it drops too much um pruning uh you take out weights or or whole channels and the thing is if it's just random weights the gpu doesn't get faster uh you need structure so like ampere has the two four sparsity thing uh where two out of every four are zero and the tensor cores skip them um then distillation is um the student model learns the the teacher's soft outputs uh and for fusion tensor r t does that it like merges the layers so you don't write to memory in between and uh fewer kernel launches and cool dnn has the the optimized kernels um and dally does the the data loading on the gpu um and then yeah you profile it with n sight systems and check the accuracy on a validation set before you ship it"""),

("seed-dev2", "sd2-tvi-09", TVI, "speech", 3,
 "tensor-cores-mixed-precision",
 "goals-contrast quantization kernel-fusion memory-throughput nvidia-tools validate-and-profile", "",
 """okay um so training and inference uh training you need you know the gradients and the optimizer and it's all about accuracy and inference is uh latency mostly um so what i'd use uh mixed precision for training so the the matrix multiplies run in f p sixteen on the tensor cores and you keep a a master copy in f p thirty two and the loss scaling um for inference uh tensor r t it it takes the onyx model and builds an engine um and it fuses the layers so there's fewer kernel launches um and batching uh you can batch requests together to get more throughput but then the latency goes up so it's a trade off um and uh quantization i think to int eight makes it smaller um pruning i haven't really uh not much experience there sorry and yeah i'd measure the latency with with some benchmark"""),

("seed-dev2", "sd2-tvi-10", TVI, "misconception", 2,
 "goals-contrast quantization", "pruning nvidia-tools validate-and-profile",
 "unstructured-pruning-speeds-up distillation-shrinks-teacher",
 """Training optimizes for final accuracy and can use large batches and lots of GPU-hours; inference optimizes latency and cost per request. Quantization moves weights and activations to INT8 or FP8, so the model is smaller and the math is faster; you calibrate the scales on sample data and check the accuracy drop. Pruning is the easy win on GPUs: set the 50% smallest-magnitude weights to zero anywhere in the matrix and inference gets roughly twice as fast, since half of the multiplications disappear. Distillation is a related compression trick: you distill the teacher by squeezing its own weights down, using its outputs as targets, so you end up with a compressed version of the same network. Finally TensorRT fuses layers and builds an optimized engine, and I'd compare latency before and after."""),

("seed-dev2", "sd2-tvi-11", TVI, "misconception", 3,
 "goals-contrast tensor-cores-mixed-precision quantization distillation pruning structured-sparsity nvidia-tools validate-and-profile",
 "", "fusion-reduces-flops",
 """Different objectives: training wants the best accuracy in acceptable time, with big batches, backprop, optimizer states and activations in memory; inference wants low latency and a small footprint, often for single requests. On the training side, mixed precision with BF16 on A100 or FP8 on H100 through Transformer Engine puts the GEMMs on Tensor Cores, with FP32 master weights.

For inference: post-training INT8 quantization with a calibration set, falling back to QAT for sensitive models; distillation into a student trained on the teacher's soft labels; and structured pruning of channels or heads, fine-tuned afterwards, since GPUs need regular sparsity, Ampere's 2:4 pattern being the hardware-supported case. Kernel fusion is where TensorRT gets much of its speed: by merging conv, bias and ReLU, the fused kernel eliminates the duplicated arithmetic between the ops, so the total FLOP count drops substantially. TensorRT also calibrates INT8 and selects the fastest kernels for the target GPU, and cuDNN provides the primitives. I'd check accuracy on held-out data and look at latency in Nsight Systems."""),

("seed-dev2", "sd2-tvi-12", TVI, "negation", 2,
 "goals-contrast quantization", "distillation", "",
 """I'll be upfront that I only know part of this. Training versus inference: training is about converging to good accuracy with large batches, inference is about latency and cost per request. Quantization I know well: going from FP32 to INT8 cuts memory 4x; for post-training quantization you run a calibration set to choose the scale per tensor, and some layers may need to stay in FP16 if accuracy drops. Pruning I don't really know beyond the name, and I couldn't tell you how the structured sparsity on Ampere works. Distillation, I believe, has a small model learn from a large one, but I'm not sure of the details. I've never used TensorRT or DALI, and I don't know how I'd profile it properly."""),

("seed-dev2", "sd2-tvi-13", TVI, "rejection", 4,
 "quantization distillation pruning structured-sparsity goals-contrast", "nvidia-tools validate-and-profile", "",
 """People sometimes say INT8 is free. It isn't. Going to INT8 shrinks the weights 4x and lets the integer Tensor Core paths run, but the activation ranges have to be calibrated on representative data, and sensitive models, small ones or LLMs with outlier activations, lose accuracy unless you use QAT or keep some layers in higher precision. Another one: "distillation compresses the teacher". No: the teacher stays as it is; you train a separate, smaller student to match its softened output distribution, and the student's capacity caps the final accuracy. And zeroing random weights won't speed up a dense GEMM, the zeros still get multiplied; the 2:4 pattern that Ampere's sparse Tensor Cores accelerate, or removing whole channels, does, and either way you fine-tune afterwards.

What I'd actually contrast is the goal: training is about converging to good accuracy with big batches and a backward pass; inference is about latency, memory and cost per query, often at batch 1. Because the weights are frozen at inference, you can rewrite the graph freely, which is what TensorRT does: fuse layers, pick kernels, calibrate precision and serialize an engine for the target GPU. And none of this should ship without an accuracy check on held-out data and a latency and throughput benchmark."""),

("seed-dev2", "sd2-tvi-14", TVI, "retraction", 3,
 "goals-contrast kernel-fusion memory-throughput distillation", "nvidia-tools", "",
 """The way I think about it: in training the metric is accuracy after convergence, and you want throughput on big batches; in inference it's latency per request and cost. For inference, kernel fusion is a big one because it reduces the number of floating-point operations. Well, actually that's not right: the fused kernel does the same math. The gain is that the intermediate tensor stays in registers or shared memory instead of going out to HBM and back, and you launch one kernel instead of several. TensorRT does a lot of that automatically. Memory layout matters too: convolutions on Tensor Cores want NHWC, channels-last, and if your tensors are NCHW the framework inserts transposes. Dynamic batching in Triton Inference Server raises throughput but adds queueing latency. Distillation I'd describe as shrinking the big model into a smaller version of itself... no, let me rephrase: the big model stays untouched, and you train a separate small student on its output probabilities."""),

# ================================================================ tensor-vs-pipeline-parallelism
("seed-dev2", "sd2-tvp-01", TVP, "strong", 5, TVP_ALL, "", "",
 """Suppose I have to train a 175B GPT on DGX nodes with 8 A100s each. It doesn't fit on one GPU, so I need model parallelism, and the two kinds cut the model differently.

Tensor parallelism is intra-layer: every weight matrix is sharded. In Megatron's MLP the first linear is split by columns, so each GPU gets a slice of the hidden units and applies GeLU locally; the second is split by rows, each GPU produces a partial sum of the output, and an all-reduce combines them. Attention is split by heads, with a row-parallel output projection and another all-reduce. So there are collectives inside every layer, forward and backward, on the critical path.

Pipeline parallelism is inter-layer: the 96 layers become, say, 8 stages of 12 consecutive layers. Communication is point-to-point: a stage sends its output activations to the next stage and receives gradients back. Small volume, only at stage boundaries.

The trade-off follows. TP talks constantly, so it needs NVLink/NVSwitch bandwidth and stays inside a node, TP=8. PP tolerates the slower InfiniBand between nodes but has a bubble: with one batch, only one stage works at a time. Splitting the batch into m micro-batches lets stages work on different micro-batches concurrently; with GPipe or 1F1B scheduling the idle fraction at fill and drain is about (p-1)/(m+p-1), so m should be several times p. Stage imbalance also hurts: the embedding and output layers make the first and last stages heavier.

Mitigations: balance layers across stages, tune the micro-batch count, use interleaved schedules with virtual stages, and overlap the TP all-reduces and PP sends with computation.

Combined: TP=8 within each node, PP across nodes, and data parallelism over the remaining replicas. That's 3D parallelism as in Megatron-LM and DeepSpeed."""),

("seed-dev2", "sd2-tvp-02", TVP, "strong", 4,
 "tp-definition pp-definition tp-collectives pp-point-to-point pipeline-bubble comm-tradeoff interconnect-placement hybrid-frameworks",
 "microbatches", "",
 """Tensor parallelism slices individual operations: a big matmul's weight is divided column-wise or row-wise over the GPUs, every GPU computes its share at the same time, and the shares are then combined with all-reduce or all-gather. Pipeline parallelism slices the depth of the network: GPU 0 gets the first quarter of the layers, GPU 1 the second quarter and so on, and activations are sent from one to the next with send/recv, gradients coming back the same way.

In terms of cost, TP has collectives in every layer, so it lives or dies by interconnect bandwidth and latency; that's why you keep it on NVLink within one server. PP only ships activations at a few boundaries, so it's fine over InfiniBand, but it has the bubble: at the start and end of each batch most stages are idle. You fight that with micro-batches; the more micro-batches per batch, the smaller the bubble. Stage imbalance also hurts, since the slowest stage sets the pace.

Large runs combine both, plus data parallelism, for example in DeepSpeed or Megatron."""),

("seed-dev2", "sd2-tvp-03", TVP, "partial", 2,
 "", "tp-definition pp-definition pp-point-to-point pipeline-bubble", "",
 """Tensor parallelism is when you split the tensors over the GPUs, and pipeline parallelism is when you split the model into a pipeline. In pipeline parallelism the GPUs pass data to each other. Tensor parallelism is faster but harder to implement. With pipeline parallelism some GPUs end up waiting. I'd use tensor parallelism for really big layers and pipeline parallelism when the model has a lot of layers."""),

("seed-dev2", "sd2-tvp-04", TVP, "partial", 3,
 "tp-definition tp-collectives transformer-example pp-definition",
 "comm-tradeoff interconnect-placement pipeline-bubble microbatches", "",
 """I've mostly worked with Megatron's tensor parallelism. Each GPU holds a slice of every weight matrix: the MLP's first GEMM is column-parallel and the second row-parallel, so you only need one all-reduce at the end of the block to sum the partial outputs, plus one for attention, where the heads are divided among the GPUs. It's communication-heavy, so we ran TP=4 over NVLink. Pipeline parallelism I know less well: you put different layers on different GPUs, and there's some idle time, the bubble, which you reduce with more micro-batches. I'm not sure about the exact schedules."""),

("seed-dev2", "sd2-tvp-05", TVP, "partial", 2,
 "tp-definition pp-definition",
 "tp-collectives microbatches pipeline-bubble interconnect-placement hybrid-frameworks", "",
 """Tensor parallel = split within a layer, each GPU has a shard of the weights; the results are combined, I think with an all-gather, after every layer. Pipeline parallel = split across layers, into stages. GPipe schedule with micro-batches; 1F1B to save memory. Bubble is about (p-1)/m. TP inside the node, PP across nodes. Megatron = 3D parallelism (TP+PP+DP)."""),

("seed-dev2", "sd2-tvp-06", TVP, "paraphrase", 4,
 "tp-definition tp-collectives pp-definition pp-point-to-point microbatches pipeline-bubble comm-tradeoff interconnect-placement hybrid-frameworks",
 "", "",
 """Picture a very tall stack of processing steps that's too big for one card. One option: keep the stack whole but cut every single step into pieces, so for each big multiplication card 1 handles the first quarter of the columns, card 2 the next quarter, and so on. After each step the cards must add up or stitch together what they each computed before anyone can continue, so they are chatting constantly; that only works when they sit in the same chassis on the very fast direct links between cards.

The other option: cut the stack into floors, floors 1-10 on one card, 11-20 on the next. Each card just hands its result to the card above, and on the way back hands the corrections down, so cards only talk to their neighbours, and rarely; that's fine even between machines on an ordinary network. The price is waiting: until the first request climbs to the top floor the upper cards have nothing to do, and at the end the lower ones sit idle. Feeding lots of small slices of the batch in one after another keeps most floors busy at the same time.

Big training jobs usually do both at once: split steps within a machine, floors across machines, and several copies of the whole arrangement working on different data."""),

("seed-dev2", "sd2-tvp-07", TVP, "paraphrase", 3,
 "tp-definition tp-collectives pp-definition comm-tradeoff",
 "pp-point-to-point pipeline-bubble interconnect-placement", "",
 """You can share a model between GPUs in two ways. Either every GPU gets a slice of each layer's numbers, and they have to pool their partial results after every layer, which means a lot of chatter; or every GPU gets a run of whole layers and passes its output along to the next one, like a relay. The relay is simpler and talks far less, but the runners at the back stand around at the start, and the ones at the front stand around at the end. I'd use the first when the GPUs are connected by very fast links and the second when they're not."""),

("seed-dev2", "sd2-tvp-08", TVP, "speech", 4,
 "tp-definition tp-collectives pp-definition pp-point-to-point pipeline-bubble microbatches interconnect-placement hybrid-frameworks",
 "comm-tradeoff", "",
 """okay so um tensor parallelism is when you you take each layer and split the the weight matrix across the gpus so like each gpu does part of the matmul and then you need a all produce um all reduce to combine the partial sums and that's like every layer so forward and backward um and pipeline is um you you split the the model by layers so the first chunk of layers on gpu zero the next on gpu one and they just send the activations to the next stage and the gradients come back um point to point um so the problem with pipeline is the bubble like when it's filling up and when it's draining the gpus are sitting idle so you cut the batch into micro batches uh gee pipe or one f one bee schedule so different stages work on different micro batches and the more micro batches the smaller the bubble um and for placement you put tensor parallel inside the node on envy link because it's super chatty and pipeline across nodes on infinity band um and then yeah in mega tron you combine them and add data parallel on top"""),

("seed-dev2", "sd2-tvp-09", TVP, "speech", 2,
 "pp-definition",
 "pp-point-to-point tp-definition transformer-example tp-collectives interconnect-placement comm-tradeoff", "",
 """um so yeah pipeline parallelism i think i know better um you've got the model and you cut it into into stages like each gpu gets some of the layers and um the the output goes from one to the next um and there's the the bubble problem uh so you use micro batches um tensor parallelism is um it's more like you split um the the attention heads so like each gpu gets some of the heads and also the the m l p is split somehow and then at the end there's a an all gather no i think all reduce uh to put it back together um and that's why it needs uh envy link um because it's a lot of traffic um and yeah deep speed and mega tron do these"""),

("seed-dev2", "sd2-tvp-10", TVP, "misconception", 2,
 "microbatches interconnect-placement hybrid-frameworks", "pp-definition tp-collectives comm-tradeoff",
 "tp-splits-layers-into-stages",
 """With tensor parallelism each GPU gets whole layers: GPU 0 runs layers 1 to 8, GPU 1 runs layers 9 to 16 and so on, and the tensors flow between them. Pipeline parallelism is the same thing but with micro-batches, so several GPUs work at once on different micro-batches. For tensor parallelism you need an all-reduce after each layer to combine the results, which is a lot of communication, so it should be on NVLink inside a node, and pipeline parallelism can go across nodes on InfiniBand. Megatron-LM uses both."""),

("seed-dev2", "sd2-tvp-11", TVP, "misconception", 3,
 "tp-definition transformer-example tp-collectives pp-definition pp-point-to-point hybrid-frameworks",
 "microbatches", "pp-no-idle tp-across-nodes",
 """Tensor parallelism partitions each layer's weight matrices across GPUs, for example splitting the QKV projection by heads and the MLP into a column-parallel then a row-parallel half, with an all-reduce after the attention block and after the MLP. Pipeline parallelism partitions the layer stack into stages, and stage k sends its activations to stage k+1 with a point-to-point send; gradients travel back the same way. With 1F1B scheduling over micro-batches every stage is busy all the time once the pipeline is running, so in practice pipeline parallelism has no idle time to worry about. For placement I'd put tensor parallelism across the nodes, because InfiniBand has enough bandwidth for the all-reduces and it scales to more GPUs, and keep the pipeline stages within a node. DeepSpeed and Megatron combine both with data parallelism."""),

("seed-dev2", "sd2-tvp-12", TVP, "negation", 3,
 "pp-definition pp-point-to-point pipeline-bubble microbatches", "tp-definition", "",
 """I can explain pipeline parallelism, but tensor parallelism I only know superficially. Pipeline: the layers are divided into consecutive stages on different GPUs; each stage passes its activations to the next one, and gradients go back the other way. Because a stage has to wait for its input, you get idle periods while the pipeline fills and drains. Micro-batching, splitting the batch into smaller pieces that flow through one after another so several stages are working at once, shrinks that bubble. Tensor parallelism splits something within the layer, I believe the weight matrices, but I don't know what communication it needs or why it's usually kept inside a node. I also don't know how people combine the two in practice."""),

("seed-dev2", "sd2-tvp-13", TVP, "rejection", 4,
 "tp-definition transformer-example tp-collectives pp-definition pp-point-to-point pipeline-bubble mitigations",
 "interconnect-placement microbatches comm-tradeoff", "",
 """It's easy to mix the two up, so let me be precise. Tensor parallelism does not give different GPUs different layers; that's pipeline parallelism. In TP every GPU takes part in every layer, holding a shard of each weight matrix: say a quarter of the columns of the QKV projection, which is a quarter of the attention heads. The partial results are combined with an all-reduce, or reduce-scatter plus all-gather with sequence parallelism, in every layer, which is why it's kept on NVSwitch inside a DGX.

Pipeline parallelism assigns contiguous blocks of layers to GPUs and passes activations between neighbours. A claim I've heard is that with micro-batching the pipeline has no idle time. Not true: there's always a ramp-up and ramp-down bubble, about (p-1)/(m+p-1) of the step for p stages and m micro-batches. You shrink it with more micro-batches, or with Megatron's interleaved schedule, where each GPU holds several non-adjacent chunks of layers, at the cost of more point-to-point traffic. In synchronous training you can't make it zero."""),

("seed-dev2", "sd2-tvp-14", TVP, "retraction", 3,
 "pp-definition pp-point-to-point tp-definition tp-collectives interconnect-placement", "comm-tradeoff", "",
 """Pipeline parallelism splits the network into stages of consecutive layers, one stage per GPU, and between stages the activations are all-reduced. Hmm, no, scratch that: there's nothing to reduce; stage i simply sends its activations to stage i+1 point-to-point, and the gradients go back the same way. The all-reduce belongs to tensor parallelism, where each GPU holds a slice of the weight matrices and the partial outputs have to be summed in every layer. Because of that per-layer traffic I'd run tensor parallelism over InfiniBand between nodes... sorry, I have that backwards. Tensor parallelism stays inside the node on NVLink, and pipeline parallelism is what you stretch across nodes, since it only sends activations at a few boundaries."""),

# ================================================================ allreduce-deep-dive
("seed-dev2", "sd2-ar-01", AR, "strong", 5, AR_ALL, "", "",
 """Concretely: 8 GPUs, each holding a partial output of a row-parallel linear, say a 32 MB tensor. All-reduce must leave the elementwise sum of all 8 tensors on all 8 GPUs, not just on one.

Ring algorithm: arrange the GPUs in a logical ring and cut each buffer into 8 chunks of 4 MB. Reduce-scatter phase, 7 steps: every GPU sends one chunk to its successor and adds the incoming chunk into its own copy; after 7 steps each GPU holds one chunk with the full sum. All-gather phase, another 7 steps: the finished chunks travel around the ring until every GPU has all 8. Each GPU sent 14 chunks, 56 MB, which is 2(N-1)/N times 32 MB. That factor tends to 2, so per-GPU bandwidth cost is essentially constant in N, while the latency term grows with the 2(N-1) hops; for small messages NCCL prefers trees.

In Megatron there's one all-reduce after the attention output projection and one after the second MLP linear in the forward pass, and two matching ones in the backward pass for the column-parallel inputs: four per layer per iteration, each the size of the full activation, batch x sequence x hidden, and each blocking the next op.

NCCL discovers the topology and uses NVLink/NVSwitch inside a node and InfiniBand with GPUDirect RDMA across nodes, roughly an order of magnitude less bandwidth per GPU. A ring runs at the speed of its slowest edge, so an 8-way TP group spanning two nodes would be throttled to InfiniBand speed: hence TP degree at most the GPUs per node.

To reduce the impact: overlap the collective with independent GEMMs by chunking the matmul and pipelining it with the communication; and Megatron's sequence parallelism replaces each all-reduce with a reduce-scatter plus an all-gather around the layernorm and dropout, same bytes, but the activations in between are sharded."""),

("seed-dev2", "sd2-ar-02", AR, "strong", 4,
 "allreduce-semantics ring-algorithm bandwidth-cost nccl-interconnect", "overlap-and-alternatives", "",
 """All-reduce is a collective where each of N ranks provides a buffer and each ends up with the same reduced buffer, typically the sum. You can think of it as a reduce-scatter followed by an all-gather, and that's also how the ring implementation works: the buffer is chopped into N pieces; during N-1 steps the pieces move around the ring and get accumulated, so each rank finishes with one fully reduced piece, and during another N-1 steps those pieces circulate until everyone has all of them. Per rank you send 2(N-1)/N times S bytes, so the bandwidth term barely changes with N; the latency term, 2(N-1) times the per-step startup cost, does grow, which is why NCCL uses trees for small messages at scale.

The practical consequence for tensor parallelism is the link speed. NCCL uses NVLink within a node, which is roughly ten times faster per GPU than the node's InfiniBand, and in a ring the slowest link is the bottleneck, so the TP group should stay within one NVLink domain. You can also try to overlap the all-reduce with other computation, though that's not always possible because the next layer needs the result."""),

("seed-dev2", "sd2-ar-03", AR, "partial", 2,
 "allreduce-semantics", "nccl-interconnect", "",
 """All-reduce adds up the gradients from all the GPUs so that they all end up with the same values, and then every GPU can do the same optimizer step. NCCL does it, with a ring or a tree. It gets slower the more GPUs you have, so for tensor parallelism you keep the group small and inside one node, where the GPUs have NVLink."""),

("seed-dev2", "sd2-ar-04", AR, "partial", 3,
 "where-in-tp allreduce-semantics", "ring-algorithm nccl-interconnect", "",
 """In Megatron tensor parallelism, the attention block ends with a row-parallel output projection and the MLP ends with a row-parallel second linear; each GPU only has a partial sum, so there's an all-reduce after each of them, two per layer in the forward pass and again two in the backward. All-reduce means every GPU ends up with the summed tensor. I know NCCL implements it as a ring, where data is passed from neighbour to neighbour, but I don't remember the exact phases. Because there are four blocking all-reduces per layer, you really want NVLink, so TP stays inside the node."""),

("seed-dev2", "sd2-ar-05", AR, "partial", 2,
 "allreduce-semantics", "ring-algorithm bandwidth-cost where-in-tp nccl-interconnect", "",
 """It's like a reduce followed by a broadcast, so all the GPUs get the result. NCCL uses a ring: reduce-scatter, then all-gather. Each GPU sends about (N-1)/N of its data, so it scales well. In tensor parallelism it's used to sum the partial results. InfiniBand is slower than NVLink."""),

("seed-dev2", "sd2-ar-06", AR, "paraphrase", 4,
 "allreduce-semantics ring-algorithm bandwidth-cost where-in-tp nccl-interconnect", "", "",
 """Each card has computed its own part of an answer, and the goal is for every card, not just one, to end up holding the complete total. The efficient trick is to seat the cards in a circle and cut the data into as many slices as there are cards. In a first lap, slices travel one hop at a time and each card adds its own contribution as a slice passes through, until every slice has collected all contributions at some card in the circle; in a second lap the completed slices go around again so every card gets a copy of each. Every card ends up sending about twice the data's size no matter how many cards join, but the number of hops grows, so tiny messages are dominated by per-hop delays.

In a language model whose weights are split across cards, this totalling happens after the attention's final projection and after the feed-forward block's second multiplication: twice on the way forward and twice on the way back, in every layer. Since the whole circle only moves as fast as its slowest connection, you want all the cards in it on the super-fast links inside a single server, not stretched over the slower network cables between servers."""),

("seed-dev2", "sd2-ar-07", AR, "paraphrase", 3,
 "allreduce-semantics bandwidth-cost overlap-and-alternatives", "ring-algorithm", "",
 """Picture every GPU holding a sheet of numbers; afterwards each one has to hold the sheet you'd get by adding all the sheets together. The naive idea would be everyone mailing their full sheet to everyone else, but the smart scheme passes pieces between neighbours so that each GPU only ships about two sheets' worth in total, however many GPUs there are. It still holds up the next step, so good implementations start shipping the first finished pieces while the GPU is still computing the rest, and the two overlap."""),

("seed-dev2", "sd2-ar-08", AR, "speech", 4,
 "allreduce-semantics where-in-tp ring-algorithm bandwidth-cost nccl-interconnect", "", "",
 """right so the all produce uh all reduce um basically every gpu has its own like tensor and you want the sum of all of them to end up on every gpu um so in mega tron that's uh after the the row parallel layer in the attention and again after the mlp so two in the forward and two in the backward um and how it moves data um nickel does a ring by default so it's a reduced scatter and then an all gather um each one is n minus one steps and you're passing chunks to your neighbour um and the cool thing is each gpu only sends like two times the the data roughly doesn't matter how many gpus um and then uh inside the node that's over envy link or envy switch and between nodes it's infinity band with uh gpu direct um so if your ring goes across nodes it's only as fast as the the infinity band part which is why you keep t p inside the node"""),

("seed-dev2", "sd2-ar-09", AR, "speech", 2,
 "", "allreduce-semantics ring-algorithm where-in-tp nccl-interconnect", "",
 """um okay so all reduce is um it's like you you reduce everything so the sum and then uh everybody gets it i think um and the the algorithm um there's a ring one where you pass things around the ring uh i don't remember exactly the steps um and the cost uh it's it's like the data size times uh something i forget um for tensor parallel it's uh it's needed after um the layers uh to combine and you want it on envy link because uh infinity band is too slow for that many of them yeah"""),

("seed-dev2", "sd2-ar-10", AR, "misconception", 2,
 "allreduce-semantics where-in-tp nccl-interconnect", "", "naive-traffic",
 """All-reduce: every rank contributes a tensor and every rank receives the elementwise sum. In Megatron-style TP it runs after the attention output projection and after the MLP's second linear, so twice per layer forward and twice backward. The trouble is the cost: each GPU must send its full tensor to each of the other N-1 GPUs, so traffic per GPU grows linearly with the TP degree, and that's why you can't push TP beyond 8. NCCL runs it over NVLink inside a node; between nodes it would go over InfiniBand, which is much slower and would bottleneck it."""),

("seed-dev2", "sd2-ar-11", AR, "misconception", 2,
 "nccl-interconnect", "overlap-and-alternatives", "allreduce-is-reduce-to-root",
 """All-reduce gathers the partial results onto one master GPU, rank 0, which adds them up; that GPU then has the complete output and carries on with the next layer. NCCL handles it, choosing NVLink when the GPUs are in the same server and InfiniBand with GPUDirect RDMA when they aren't, and since the slower network link dominates the time, tensor parallelism stays inside one node. You can try to overlap it with other computation to hide some of the cost."""),

("seed-dev2", "sd2-ar-12", AR, "negation", 2,
 "allreduce-semantics", "nccl-interconnect", "",
 """What it computes I can say: every GPU puts in its tensor and every GPU gets back the sum of all of them. How it moves the data, I honestly don't know the algorithm well enough; I've heard "ring" but couldn't walk you through it, and I don't know the cost formula. From experience, TP across two nodes was much slower for us than within one node with NVLink, which I assume is because InfiniBand is slower, but I'm not sure where exactly in the layer the all-reduces happen."""),

("seed-dev2", "sd2-ar-13", AR, "rejection", 4,
 "ring-algorithm bandwidth-cost where-in-tp overlap-and-alternatives", "allreduce-semantics nccl-interconnect", "",
 """You sometimes hear that all-reduce traffic explodes with the number of GPUs because everyone sends everything to everyone. That's the naive algorithm, not what NCCL does. With the ring, each rank's buffer is split into N chunks; the reduce-scatter moves chunks around for N-1 steps, accumulating, until each rank holds one fully summed chunk, and the all-gather then circulates those for another N-1 steps. Per-rank traffic is 2(N-1)/N of the buffer, under 2x, independent of N. So the reason TP is kept small isn't bandwidth growth: it's the number of latency-bound steps and the speed of the slowest link.

In Megatron the all-reduces sit after the row-parallel linears, the attention output projection and the MLP down projection. Sequence parallelism turns each into a reduce-scatter plus an all-gather, so layernorm and dropout run on a shard of the sequence, and you can overlap the collectives with the GEMMs of independent chunks."""),

("seed-dev2", "sd2-ar-14", AR, "retraction", 3,
 "ring-algorithm bandwidth-cost", "allreduce-semantics where-in-tp nccl-interconnect", "",
 """All-reduce sums a tensor across the GPUs in the group. With a ring, each GPU ends up sending N times the data, so it gets linearly worse with more GPUs. Hmm, no, that's not right: the data is chunked, so in the reduce-scatter phase each GPU sends N-1 chunks of size S/N, and in the all-gather phase another N-1, about 2S in total regardless of N. What does grow is the number of steps, so the latency goes up. For tensor parallelism this happens in every layer, which is why it stays on NVLink."""),
]
