# A recommendation ranking model in the style of the bundled problems'
# workloads, at production-like sizes (README.md says where they come from).
# KernelBench's format: class Model, get_inputs(), get_init_inputs(), sizes at
# module level. Every stage is a leaf module, so `model profile` reports each
# as a region a kernel can replace:
#   feature preprocessing: FeatureBuckets (MBDT), IdRemap (MapId),
#   EventTruncate (batch event truncate); EmbeddingBag pooling; the classic FM
#   interaction; LayerNorm; a causal depthwise conv with SiLU over the event
#   sequence; attention pooling (softmax); the MLP head.
import torch
from torch import nn

batch = 2048          # requests per inference call
dense_features = 256  # float features, bucketized
borders = 63          # bucket borders per dense feature (64 buckets)
sparse_features = 26  # id features per request (Criteo's 26 categorical)
raw_ids = 1 << 20     # raw id space seen by the remap table
table_rows = 100_000  # ids the model keeps an embedding for
dim = 64              # embedding and event width
mean_events = 128     # events per user, on average (lengths vary 1..max_events)
max_events = 512
keep = 64             # events kept per user (the most recent first)
kernel = 4            # causal depthwise conv taps


class FeatureBuckets(nn.Module):
    """MBDT: each dense feature's bucket against its own borders, offset so
    every feature has ids of its own."""

    def __init__(self):
        super().__init__()
        grid = torch.linspace(-3, 3, borders)
        self.register_buffer("borders", grid.repeat(dense_features, 1) + 0.01 * torch.arange(dense_features)[:, None])

    def forward(self, x):
        buckets = torch.stack([torch.bucketize(x[:, f], self.borders[f]) for f in range(x.shape[1])], dim=1)
        return buckets + torch.arange(x.shape[1], device=x.device) * (borders + 1)


class IdRemap(nn.Module):
    """MapId: a raw id's 1-based position in the sorted table of kept ids, 0
    when the model has no embedding for it."""

    def __init__(self):
        super().__init__()
        g = torch.Generator().manual_seed(7)
        self.register_buffer("table", torch.randperm(raw_ids, generator=g)[: table_rows - 1].sort().values)

    def forward(self, ids):
        pos = torch.searchsorted(self.table, ids)
        found = (pos < self.table.numel()) & (self.table[pos.clamp(max=self.table.numel() - 1)] == ids)
        return torch.where(found, pos + 1, torch.zeros_like(pos))


class EventTruncate(nn.Module):
    """Batch event truncate: each user's first `keep` events of a jagged
    batch (values, lengths) as a dense [batch, keep, dim], zero-padded."""

    def forward(self, values, lengths):
        starts = torch.cumsum(lengths, 0) - lengths
        slot = torch.arange(keep, device=values.device)
        index = (starts[:, None] + slot[None, :]).clamp(max=values.shape[0] - 1)
        kept = values[index]
        return kept * (slot[None, :] < lengths[:, None]).to(values.dtype)[:, :, None]


class FMInteraction(nn.Module):
    """Classic factorization machine: 0.5 * ((sum of fields)^2 - sum of squares)."""

    def forward(self, fields):
        s = fields.sum(dim=1)
        return 0.5 * (s * s - (fields * fields).sum(dim=1))


class CausalDwConvSilu(nn.Module):
    """Depthwise causal conv1d (`kernel` taps) + bias + SiLU over the events."""

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(dim, 1, kernel) * 0.3)
        self.bias = nn.Parameter(torch.zeros(dim))

    def forward(self, seq):  # [batch, keep, dim]
        x = nn.functional.pad(seq.transpose(1, 2), (kernel - 1, 0))
        return nn.functional.silu(nn.functional.conv1d(x, self.weight, self.bias, groups=dim)).transpose(1, 2)


class AttentionPool(nn.Module):
    """Softmax attention of the request's query over its events."""

    def forward(self, seq, query):
        scores = torch.einsum("bkd,bd->bk", seq, query) / dim ** 0.5
        return torch.einsum("bk,bkd->bd", torch.softmax(scores, dim=-1), seq)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.buckets = FeatureBuckets()
        self.remap = IdRemap()
        self.truncate = EventTruncate()
        self.dense_embed = nn.EmbeddingBag(dense_features * (borders + 1), dim, mode="sum")
        self.sparse_embed = nn.Embedding(table_rows, dim)
        self.fm = FMInteraction()
        self.norm = nn.LayerNorm(dim)
        self.conv = CausalDwConvSilu()
        self.attend = AttentionPool()
        self.up = nn.Linear(3 * dim, 256)
        self.act = nn.ReLU()
        self.head = nn.Linear(256, 1)

    def forward(self, dense, ids, event_values, event_lengths):
        dense_vec = self.dense_embed(self.buckets(dense))              # [batch, dim]
        fields = self.sparse_embed(self.remap(ids))                    # [batch, sparse_features, dim]
        interaction = self.norm(self.fm(fields))                       # [batch, dim]
        seq = self.conv(self.truncate(event_values, event_lengths))    # [batch, keep, dim]
        history = self.attend(seq, dense_vec)                          # [batch, dim]
        return self.head(self.act(self.up(torch.cat([dense_vec, interaction, history], dim=1))))


def get_inputs():
    lengths = torch.randint(1, 2 * mean_events, (batch,)).clamp(max=max_events)
    return [torch.randn(batch, dense_features), torch.randint(0, raw_ids, (batch, sparse_features)),
            torch.randn(int(lengths.sum()), dim), lengths]


def get_init_inputs():
    return []
