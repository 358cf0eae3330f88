# numpy emulation of the seed's word strategy (logic check, not the kernel)
import numpy as np, sys
def shift(span, R):
    s=0
    while s < 63 and (span >> s) >= R: s+=1
    return s
def ref(ids, m):
    idx=np.minimum(np.searchsorted(m, ids, side='left'), len(m)-1)
    return np.where(m[idx]==ids, idx+1, 0)
def word_strategy(ids, m, bpe):
    T=len(m); R=max(2,1<<(T-1).bit_length())*bpe
    m0=int(m[0]); span=int(m[-1])-m0; s=shift(span,R)
    if s>7: return ref(ids,m), s, 0
    b=((m-m0)>>s)
    words=np.full(R, -4294967296, dtype=np.int64)
    bp=np.concatenate([[-1],b[:-1]])
    first=np.nonzero(b!=bp)[0]
    ovf=0
    for j in first:
        k=int(b[j]); j=int(j); w=j|((int(m[j])-m0-(k<<s))<<32)
        inb=True
        for i in range(1,5):
            inb = inb and j+i<T and b[j+i]==k
            if i<4:
                d=(int(m[j+i])-m0-(k<<s)) if inb else 0xFF
                w|=d<<(32+8*i)
            else:
                w|=int(inb)<<31; ovf+=inb
        words[k]=np.int64(w-(1<<64) if w>=(1<<63) else w)
    out=np.zeros(len(ids),dtype=np.int64)
    for q,v in enumerate(ids):
        v=int(v)
        if not (m0<=v<=int(m[-1])): continue
        k=(v-m0)>>s; w=int(words[k]); o=v-m0-(k<<s); pos=w&0x7FFFFFFF
        for i in range(4):
            if ((w>>(32+8*i))&0xFF)==o: out[q]=pos+i+1
        if (w>>31)&1 and o>((w>>56)&0xFF):
            j=pos+4
            while j<T and m[j]<v:
                j+=1
            if j<T and m[j]==v: out[q]=j+1
    return out, s, ovf
rng=np.random.default_rng(1)
def gen(T,Q,step=None):
    step=step or max(2,(2*10**8)//T)
    m=np.cumsum(rng.integers(1,step,T))-1
    kind=rng.random(Q); hits=m[rng.integers(0,T,Q)]; near=hits+np.where(rng.random(Q)<.5,-1,1)
    wild=rng.integers(-10**6,int(m[-1])+10**6,Q)
    return np.where(kind<.6,hits,np.where(kind<.7,near,wild)), m
cases=[(1,1),(1,13),(2,9),(5,5),(17,37),(1000,1),(100,1001),(4097,4099),(65537,20003),(1048576,3000)]
for T,Q in cases:
    for bpe in (1,2,4):
        ids,m=gen(T,Q); o,s,ov=word_strategy(ids,m,bpe)
        assert (o==ref(ids,m)).all(), (T,Q,bpe)
    print(T,Q,'ok s=',s)
# clustered: consecutive values (overflow everywhere), and huge span (fallback)
for T,Q,step in [(4097,5000,2),(70000,20000,3),(5000,3000,10**9)]:
    ids,m=gen(T,Q,step)
    ids[:Q//2]=m[rng.integers(0,T,Q//2)]
    o,s,ov=word_strategy(ids,m,1); assert (o==ref(ids,m)).all(); print('cluster',T,step,'s',s,'overflow buckets',ov)
# time-shape statistics: overflow share
ids,m=gen(1048576,200000)
for bpe in (1,2):
    o,s,ov=word_strategy(ids,m,bpe); assert (o==ref(ids,m)).all(); print('time shape bpe',bpe,'s',s,'overflow buckets',ov)
# mixed: dense runs inside a sparse table (overflow buckets with the word path on)
m=np.cumsum(np.where(rng.random(200000)<0.3, 1, rng.integers(1,250,200000)))
ids=np.concatenate([m[rng.integers(0,len(m),30000)], rng.integers(-5,int(m[-1])+5,20000)])
for bpe in (1,2):
    o,s,ov=word_strategy(ids,m,bpe); assert (o==ref(ids,m)).all(); print('mixed bpe',bpe,'s',s,'overflow buckets',ov)
